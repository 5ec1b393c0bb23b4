"""Randomized leaky ReLU (`chainer.functions.rrelu`)."""
import minichainer
from minichainer import backend
from minichainer import function_node
from minichainer.utils import argument
from minichainer.utils import type_check


class RReLU(function_node.FunctionNode):
    """Randomized Leaky ReLU; slopes drawn from `U(lower, upper)` in training."""

    def __init__(self, lower=1. / 8, upper=1. / 3, r=None):
        if not 0.0 <= lower < 1.0:
            raise ValueError('rrelu: lower must be in the range [0, 1), got {}'.format(lower))
        if not 0.0 <= upper < 1.0:
            raise ValueError('rrelu: upper must be in the range [0, 1), got {}'.format(upper))
        if not lower < upper:
            raise ValueError('rrelu: lower must be less than upper, got lower={} upper={}'
                             .format(lower, upper))
        self.lower = lower
        self.upper = upper
        self.r = r

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 1)
        x_type, = in_types
        type_check.expect(x_type.dtype.kind == 'f')
        if self.r is not None:
            type_check.expect(x_type.dtype == self.r.dtype)
            type_check.expect(x_type.shape == self.r.shape)

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        if minichainer.config.train:
            if self.r is None:
                self.r = xp.random.uniform(
                    self.lower, self.upper, x.shape).astype(x.dtype, copy=False)
        else:
            self.r = xp.full(x.shape, (self.lower + self.upper) / 2, dtype=x.dtype)
        y = xp.where(x >= 0, x, x * self.r)
        self.retain_outputs((0,))
        return y,

    def backward(self, indexes, grad_outputs):
        y = self.get_retained_outputs()[0].array
        return _RReLUGrad(y, self.r).apply(grad_outputs)


class _RReLUGrad(function_node.FunctionNode):

    def __init__(self, y, r):
        self.r = r
        self.y = y

    def forward(self, inputs):
        gy, = inputs
        xp = backend.get_array_module(gy)
        return xp.where(self.y >= 0, gy, gy * self.r),

    def backward(self, indexes, grad_outputs):
        return _RReLUGrad(self.y, self.r).apply(grad_outputs)


def rrelu(x, l=1. / 8, u=1. / 3, **kwargs):
    """Randomized Leaky ReLU: `x` for `x >= 0`, `r * x` otherwise.

    In training mode (`config.train`) each `r` is drawn from `U(l, u)` with
    `numpy.random.uniform` (unless `r` is given); in test mode `r = (l + u) / 2`.

    Args:
        x (Variable or ndarray): Input float array.
        l (float): Lower bound of the uniform distribution, in `[0, 1)`.
        u (float): Upper bound of the uniform distribution, in `[0, 1)`, `l < u`.
        r (ndarray): Optional slopes of the same shape and dtype as `x` (keyword only).
        return_r (bool): Also return the slopes used (keyword only).

    Returns:
        Variable or tuple: The output, or `(output, r)` if `return_r`.
    """
    r = None
    return_r = False
    if kwargs:
        r, return_r = argument.parse_kwargs(
            kwargs, ('r', r), ('return_r', r),
            train='train argument is not supported anymore. '
                  'Use chainer.using_config')
    func = RReLU(l, u, r)
    out, = func.apply((x,))
    r = func.r
    if return_r:
        return out, r
    return out
