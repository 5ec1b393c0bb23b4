"""`cumprod`: cumulative product over an axis (exact gradients, zeros allowed)."""
from minichainer import backend
from minichainer import function_node
from minichainer import utils
from minichainer.functions import _fast
from minichainer.functions.array import reshape
from minichainer.functions.math import _axis
from minichainer.functions.math import _elementwise
from minichainer.utils import type_check


def _reverse_index(axis):
    return (slice(None),) * axis + (slice(None, None, -1),)


class _Shift(function_node.FunctionNode):
    """Shift by one position along `axis` filling the vacated slot with `fill`.

    `direction=1` gives `[fill, x0, ..., x(n-2)]`; `-1` gives
    `[x1, ..., x(n-1), fill]`.  Linear, so its gradient is the opposite shift
    filled with zero.
    """

    def __init__(self, axis, direction, fill):
        self.axis = axis
        self.direction = direction
        self.fill = fill

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        y = xp.empty_like(x)
        pre = (slice(None),) * self.axis
        if x.shape[self.axis] == 0:
            return y,
        if self.direction > 0:
            y[pre + (0,)] = self.fill
            y[pre + (slice(1, None),)] = x[pre + (slice(None, -1),)]
        else:
            y[pre + (-1,)] = self.fill
            y[pre + (slice(None, -1),)] = x[pre + (slice(1, None),)]
        return y,

    def backward(self, indexes, grad_outputs):
        return _Shift(self.axis, -self.direction, 0).apply(grad_outputs)


def _shift(x, axis, direction, fill):
    return _Shift(axis, direction, fill).apply((x,))[0]


def _cumprodsum(xmul, xadd, axis):
    """The recurrence of `Cumprodsum` on arrays."""
    xp = backend.get_array_module(xadd)
    y = xp.empty_like(xadd)
    pre = (slice(None),) * axis
    n = xadd.shape[axis]
    if n == 0:
        return y
    cum = xadd[pre + (0,)].copy()
    y[pre + (0,)] = cum
    for i in range(1, n):
        cum *= xmul[pre + (i - 1,)]
        cum += xadd[pre + (i,)]
        y[pre + (i,)] = cum
    return y


class Cumprod(function_node.FunctionNode):
    """Cumulative product of array elements over a given axis."""

    def __init__(self, axis):
        if isinstance(axis, int) and not isinstance(axis, bool):
            self.axis = axis
        else:
            raise TypeError('cumprod: axis must be an int or None, got {!r}'.format(axis))

    def check_type_forward(self, in_types):
        _elementwise.check_float_x(in_types)
        _axis.check_axes(type_check, in_types[0], (self.axis,))

    def forward(self, inputs):
        self.retain_inputs((0,))
        self.retain_outputs((0,))
        x, = inputs
        xp = backend.get_array_module(x)
        return utils.force_array(xp.cumprod(x, axis=self.axis)),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        y, = self.get_retained_outputs()
        gy, = grad_outputs
        axis = self.axis % x.ndim
        if x.shape[axis] == 0:
            return None,
        pre = (slice(None),) * axis
        rev = _reverse_index(axis)
        # gx_i = (prod_{j<i} x_j) * S_i with S_i = gy_i + x_{i+1} S_{i+1};
        # S is computed by Cumprodsum on the reversed arrays.
        if not _fast.needs_graph():
            xa, ya = x.array, y.array
            s = _cumprodsum(xa[pre + (slice(1, None),)][rev], gy.array[rev], axis)
            gx = s[rev]
            gx[pre + (slice(1, None),)] *= ya[pre + (slice(None, -1),)]
            return _fast.as_grad(gx),
        x_rest = x[pre + (slice(1, None),)]
        s, = Cumprodsum(axis).apply((x_rest[rev], gy[rev]))
        return s[rev] * _shift(y, axis, 1, 1),


class Cumprodsum(function_node.FunctionNode):
    """`y_0 = a_0`, `y_i = a_i + m_{i-1} * y_{i-1}` along `axis`.

    Inputs are `m` (one shorter along `axis`) and `a`.
    """

    def __init__(self, axis):
        self.axis = axis

    def forward(self, inputs):
        self.retain_inputs((0,))
        self.retain_outputs((0,))
        xmul, xadd = inputs
        return _cumprodsum(xmul, xadd, self.axis),

    def backward(self, indexes, grad_outputs):
        xmul, = self.get_retained_inputs()
        y, = self.get_retained_outputs()
        gy, = grad_outputs
        axis = self.axis
        pre = (slice(None),) * axis
        rev = _reverse_index(axis)
        z, = Cumprodsum(axis).apply((xmul[rev], gy[rev]))
        gxadd = z[rev]
        gxmul = gxadd[pre + (slice(1, None),)] * y[pre + (slice(None, -1),)]
        return gxmul, gxadd


def cumprod(x, axis=None):
    """Cumulative product of array elements over a given axis.

    Args:
        x (Variable or ndarray): Elements to multiply up.
        axis (int or None): Axis along which the product is taken; None flattens.

    Returns:
        Variable: Output variable.
    """
    if axis is None:
        x = reshape.reshape(x, (utils.size_of_shape(x.shape),))
        axis = 0
    return Cumprod(axis).apply((x,))[0]
