"""L2 normalization."""
from minichainer import backend
from minichainer import utils
from minichainer.functions.array.broadcast import broadcast_to
from minichainer.functions.math.sqrt import sqrt
from minichainer.functions.math.sum import sum as _sum
from minichainer.functions.math import _elementwise


class NormalizeL2(_elementwise.FloatInput):
    """FunctionNode of
    [`normalize`][minichainer.functions.normalization.l2_normalization.normalize]:
    `y = x / (||x||_2 + eps)` along `axis`."""

    def __init__(self, eps=1e-5, axis=1):
        self.eps = eps
        self.axis = axis

    def forward(self, inputs):
        self.retain_inputs((0,))
        x, = inputs
        xp = backend.get_array_module(x)
        norm = (xp.sqrt(xp.sum(xp.square(x), axis=self.axis, keepdims=True))
                + x.dtype.type(self.eps))
        return utils.force_array(x / norm, x.dtype),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        gy, = grad_outputs
        xp = backend.get_array_module(x.array)
        sq = _sum(x * x, axis=self.axis, keepdims=True)
        # zero vectors: use 1 under the square root so double backprop stays finite
        zero = xp.asarray(sq.array == 0, dtype=x.dtype)
        norm_noeps = sqrt(sq + zero) - zero
        norm = broadcast_to(norm_noeps + x.dtype.type(self.eps), x.shape)
        x_gy = _sum(x * gy, axis=self.axis, keepdims=True)
        coef = x_gy / ((norm_noeps + zero) * (norm_noeps + x.dtype.type(self.eps)) ** 2)
        gx = gy / norm - x * broadcast_to(coef, x.shape)
        return gx,


def normalize(x, eps=1e-5, axis=1):
    """L2-normalize `x` along `axis`: `y = x / (sqrt(sum(x ** 2, axis)) + eps)`.

    Args:
        x (Variable or ndarray): float input.
        eps (float): added to the norm to avoid division by zero.
        axis (int or tuple of ints): axes to normalize along.
    """
    return NormalizeL2(eps, axis).apply((x,))[0]
