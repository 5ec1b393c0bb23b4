"""Depth-to-space rearrangement (`chainer.functions.depth2space`)."""
from minichainer import backend
from minichainer import function_node
from minichainer.functions.array import space2depth
from minichainer.utils import type_check


class Depth2Space(function_node.FunctionNode):
    """Move channel blocks into `r x r` spatial blocks."""

    def __init__(self, r):
        self.r = r

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x',))
        type_check.expect(in_types[0].dtype.kind == 'f', in_types[0].ndim == 4)
        type_check.expect(in_types[0].shape[1] % (self.r * self.r) == 0)

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        r = self.r
        n, c, h, w = x.shape
        c //= r * r
        # channel index = (ry * r + rx) * c + k; one strided copy per (ry, rx) block
        # (a single transposing copy runs inner loops r elements long: ~2.5x slower)
        blocks = xp.reshape(x, (n, r, r, c, h, w))
        y = xp.empty((n, c, h, r, w, r), dtype=x.dtype)
        for ry in range(r):
            for rx in range(r):
                y[:, :, :, ry, :, rx] = blocks[:, ry, rx]
        return y.reshape(n, c, h * r, w * r),

    def backward(self, indexes, grad_outputs):
        return space2depth.space2depth(grad_outputs[0], self.r),


def depth2space(X, r):
    """Rearrange `(N, C * r * r, H, W)` into `(N, C, H * r, W * r)` (subpixel shuffle).

    Args:
        X (Variable or numpy.ndarray): Floating-point 4-D input whose
            channel count is divisible by `r * r`.
        r (int): Upscaling factor.

    Deliberate difference: a channel count not divisible by `r * r` fails the type
    check (`InvalidType`) instead of inside `reshape`.

    Returns:
        Variable: The rearranged variable.
    """
    return Depth2Space(r).apply((X,))[0]
