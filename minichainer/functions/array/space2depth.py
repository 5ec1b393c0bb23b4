"""Space-to-depth rearrangement (`chainer.functions.space2depth`)."""
from minichainer import backend
from minichainer import function_node
from minichainer.functions.array import depth2space
from minichainer.utils import type_check


class Space2Depth(function_node.FunctionNode):
    """Move `r x r` spatial blocks into channels."""

    def __init__(self, r):
        self.r = r

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x',))
        type_check.expect(in_types[0].dtype.kind == 'f', in_types[0].ndim == 4)
        type_check.expect(in_types[0].shape[2] % self.r == 0,
                          in_types[0].shape[3] % self.r == 0)

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        r = self.r
        n, c, h, w = x.shape
        # one strided copy per (ry, rx) block, as depth2space
        src = xp.reshape(x, (n, c, h // r, r, w // r, r))
        y = xp.empty((n, r, r, c, h // r, w // r), dtype=x.dtype)
        for ry in range(r):
            for rx in range(r):
                y[:, ry, rx] = src[:, :, :, ry, :, rx]
        return y.reshape(n, r * r * c, h // r, w // r),

    def backward(self, indexes, grad_outputs):
        return depth2space.depth2space(grad_outputs[0], self.r),


def space2depth(X, r):
    """Rearrange `(N, C, H * r, W * r)` into `(N, C * r * r, H, W)`.

    Args:
        X (Variable or numpy.ndarray): Floating-point 4-D input whose
            height and width are divisible by `r`.
        r (int): Downscaling factor.

    Deliberate difference: a height or width not divisible by `r` fails the type check
    (`InvalidType`) instead of inside `reshape`.

    Returns:
        Variable: The rearranged variable.
    """
    return Space2Depth(r).apply((X,))[0]
