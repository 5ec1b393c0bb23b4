"""Arithmetic on Variables: the functions behind `+ - * / // ** @`, `-x` and `abs`.

Binary operations between Variables broadcast like NumPy; backward sums the gradient back
to each input's shape.  A Python or NumPy scalar (or an array) on the other side is a
constant, cast to the Variable's dtype as Chainer does.
"""
import numpy

from minichainer import backend
from minichainer import utils
from minichainer.function_node import FunctionNode
from minichainer.functions.math import matmul as matmul_mod
from minichainer.functions.math import sum as sum_mod
from minichainer.utils import type_check
from minichainer.variable import Variable

_ndarray = numpy.ndarray


def _is_array(value):
    """True for a NumPy array or a device (CuPy) array."""
    return isinstance(value, _ndarray) or (
        not isinstance(value, (numpy.generic, float, int))
        and isinstance(value, backend.get_array_types()))
_force_array = utils.force_array


def _sum_to_shape(gx, shape):
    """Differentiably reduce a gradient Variable to `shape` (undo broadcasting)."""
    if gx.array_slot.shape == shape:
        return gx
    return sum_mod.sum_to(gx, shape)


def _check_binary(in_types):
    type_check.expect(in_types.size() == 2)
    type_check.argname(in_types, ('lhs', 'rhs'))
    lhs, rhs = in_types
    type_check.expect(lhs.dtype == rhs.dtype)
    type_check.expect_broadcast_shapes(lhs.shape, rhs.shape)


def _preprocess_const(x, value):
    """Cast a constant to the dtype of `x` (Chainer keeps the Variable's dtype)."""
    value_type = type(value)
    if value_type is float or value_type is int:
        return x.dtype.type(value)
    if _is_array(value):
        _check_const_shape(x, value)
        return value.astype(x.dtype, copy=False)
    if numpy.isscalar(value) and not isinstance(value, (str, bytes)):
        return x.dtype.type(value)
    raise TypeError(
        'Value must be a scalar, `numpy.ndarray` or a `Variable`.\nActual: {}'.format(
            type(value)))


def _check_const_shape(x, value):
    # An array constant must broadcast with the Variable, as the two-input op would check.
    shape, vshape = x.shape, value.shape
    if shape == vshape:
        return
    try:
        numpy.broadcast_shapes(shape, vshape)
    except ValueError:
        raise type_check.InvalidType(
            'broadcastable shapes of the Variable and the constant array',
            '{} and {}'.format(shape, vshape)) from None


def _as_const_or_var(x, value):
    if isinstance(value, Variable):
        return value
    return _preprocess_const(x, value)


class _BinaryOp(FunctionNode):
    """An arithmetic operation between two Variables of one dtype (shapes broadcast)."""

    _label = None

    @property
    def label(self):
        return self._label

    def check_type_forward(self, in_types):
        _check_binary(in_types)


class _ConstantOp(FunctionNode):
    """An arithmetic operation between a Variable and a constant `value`."""

    _label_format = None

    def __init__(self, value):
        self.value = value

    @property
    def label(self):
        return self._label_format % _convert_value_to_string(self.value)


class Neg(FunctionNode):

    @property
    def label(self):
        return '__neg__'

    def forward(self, inputs):
        return _force_array(-inputs[0]),

    def backward(self, indexes, grad_outputs):
        return -grad_outputs[0],


def neg(self):
    return Neg().apply((self,))[0]


class Absolute(FunctionNode):

    @property
    def label(self):
        return '|_|'

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 1)
        type_check.argname(in_types, ('x',))
        type_check.expect(in_types[0].dtype.kind == 'f')

    def forward(self, inputs):
        self.retain_inputs((0,))
        return _force_array(abs(inputs[0])),

    def backward(self, indexes, grad_outputs):
        x = self.get_retained_inputs()[0]
        return AbsoluteGrad(x.array).apply(grad_outputs)


class AbsoluteGrad(FunctionNode):
    """Gradient of absolute: `sign(x) * gy`; differentiable in `gy`."""

    def __init__(self, x):
        self.x = x

    def forward(self, inputs):
        xp = backend.get_array_module(self.x)
        return _force_array(xp.sign(self.x) * inputs[0]),

    def backward(self, indexes, grad_outputs):
        return AbsoluteGrad(self.x).apply(grad_outputs)


def absolute(self):
    """Elementwise absolute value (differentiable)."""
    return Absolute().apply((self,))[0]


class Add(_BinaryOp):

    _label = '_ + _'

    def forward(self, inputs):
        x0, x1 = inputs
        return _force_array(x0 + x1),

    def backward(self, indexes, grad_outputs):
        gy = grad_outputs[0]
        inputs = self.inputs
        return tuple(_sum_to_shape(gy, inputs[i].shape) for i in indexes)


class AddConstant(_ConstantOp):

    _label_format = '_ + %s'

    def forward(self, inputs):
        return _force_array(inputs[0] + self.value),

    def backward(self, indexes, grad_outputs):
        return _sum_to_shape(grad_outputs[0], self.inputs[0].shape),


class MultiAdd(FunctionNode):
    """Sum of several Variables of one dtype; shapes broadcast as in NumPy."""

    def check_type_forward(self, in_types):
        for i, t in enumerate(in_types):
            type_check.argname((t,), ('x{}'.format(i),))
            type_check.expect(t.dtype == in_types[0].dtype)
        type_check.expect_broadcast_shapes(*[t.shape for t in in_types])

    def forward(self, xs):
        if len(xs) == 1:
            return xs[0].copy(),
        y = xs[0] + xs[1]
        for x in xs[2:]:
            if x.shape == y.shape:
                y += x
            else:
                y = y + x
        return _force_array(y),

    def backward(self, indexes, grad_outputs):
        gy = grad_outputs[0]
        inputs = self.inputs
        return tuple(_sum_to_shape(gy, inputs[i].shape) for i in indexes)


def add(*xs):
    """Elementwise sum of Variables/arrays: `add(x, y)` is `x + y`."""
    if len(xs) == 2:
        lhs, rhs = xs
        if isinstance(rhs, Variable):
            return Add().apply((lhs, rhs))[0]
        return AddConstant(_preprocess_const(lhs, rhs)).apply((lhs,))[0]
    return MultiAdd().apply(xs)[0]


def _radd(self, lhs):
    if isinstance(lhs, Variable):
        return Add().apply((lhs, self))[0]
    return AddConstant(_preprocess_const(self, lhs)).apply((self,))[0]


class Sub(_BinaryOp):

    _label = '_ - _'

    def forward(self, inputs):
        x0, x1 = inputs
        return _force_array(x0 - x1),

    def backward(self, indexes, grad_outputs):
        gy = grad_outputs[0]
        inputs = self.inputs
        ret = []
        for i in indexes:
            g = gy if i == 0 else -gy
            ret.append(_sum_to_shape(g, inputs[i].shape))
        return tuple(ret)


def sub(self, rhs):
    if isinstance(rhs, Variable):
        return Sub().apply((self, rhs))[0]
    return AddConstant(-_preprocess_const(self, rhs)).apply((self,))[0]


class SubFromConstant(_ConstantOp):

    _label_format = '%s - _'

    def forward(self, inputs):
        return _force_array(self.value - inputs[0]),

    def backward(self, indexes, grad_outputs):
        return _sum_to_shape(-grad_outputs[0], self.inputs[0].shape),


def rsub(self, lhs):
    if isinstance(lhs, Variable):
        return Sub().apply((lhs, self))[0]
    return SubFromConstant(_preprocess_const(self, lhs)).apply((self,))[0]


class Mul(_BinaryOp):

    _label = '_ * _'

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x0, x1 = inputs
        return _force_array(x0 * x1),

    def backward(self, indexes, grad_outputs):
        gy = grad_outputs[0]
        xs = self.get_retained_inputs()
        inputs = self.inputs
        ret = []
        for i in indexes:
            g = gy * xs[1 - i]
            ret.append(_sum_to_shape(g, inputs[i].shape))
        return tuple(ret)


class MulConstant(_ConstantOp):

    _label_format = '_ * %s'

    def forward(self, inputs):
        return _force_array(inputs[0] * self.value),

    def backward(self, indexes, grad_outputs):
        g = MulConstant(self.value).apply(grad_outputs)[0]
        return _sum_to_shape(g, self.inputs[0].shape),


def mul(self, rhs):
    if isinstance(rhs, Variable):
        return Mul().apply((self, rhs))[0]
    return MulConstant(_preprocess_const(self, rhs)).apply((self,))[0]


class Div(_BinaryOp):

    _label = '_ / _'

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x0, x1 = inputs
        return _force_array(x0 / x1),

    def backward(self, indexes, grad_outputs):
        x0, x1 = self.get_retained_inputs()
        gy = grad_outputs[0]
        gx0 = gy / x1
        ret = []
        for i in indexes:
            if i == 0:
                ret.append(_sum_to_shape(gx0, self.inputs[0].shape))
            else:
                ret.append(_sum_to_shape(-gx0 * x0 / x1, self.inputs[1].shape))
        return tuple(ret)


def div(self, rhs):
    if isinstance(rhs, Variable):
        return Div().apply((self, rhs))[0]
    # the reciprocal is taken first and then cast (as Chainer): ``1. / float32(3)`` would be
    # float64 on NumPy 1.26
    return MulConstant(_preprocess_const(self, _reciprocal(rhs))).apply((self,))[0]


def _reciprocal(value):
    if _is_array(value):
        return 1. / value
    if numpy.isscalar(value) and not isinstance(value, (str, bytes)):
        return 1. / value
    return value  # not a constant: _preprocess_const raises naming the type


class DivFromConstant(_ConstantOp):

    _label_format = '%s / _'

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 1)
        type_check.expect(in_types[0].dtype.kind == 'f')

    def forward(self, inputs):
        self.retain_inputs((0,))
        return _force_array(self.value / inputs[0]),

    def backward(self, indexes, grad_outputs):
        x = self.get_retained_inputs()[0]
        g = -self.value * grad_outputs[0] / (x * x)
        return _sum_to_shape(g, self.inputs[0].shape),


def rdiv(self, lhs):
    if isinstance(lhs, Variable):
        return Div().apply((lhs, self))[0]
    return DivFromConstant(_preprocess_const(self, lhs)).apply((self,))[0]


def floordiv(self, rhs):
    """`x // y`: not differentiable; the result requires no gradient."""
    rhs_array = rhs.array if isinstance(rhs, Variable) else _preprocess_const(self, rhs)
    return Variable(_force_array(self.array // rhs_array), requires_grad=False)


def rfloordiv(self, lhs):
    lhs_array = lhs.array if isinstance(lhs, Variable) else _preprocess_const(self, lhs)
    return Variable(_force_array(lhs_array // self.array), requires_grad=False)


class PowVarVar(_BinaryOp):

    _label = '_ ** _'

    def check_type_forward(self, in_types):
        _check_binary(in_types)
        type_check.expect(in_types[0].dtype.kind == 'f')

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        self.retain_outputs((0,))
        x0, x1 = inputs
        return _force_array(x0 ** x1),

    def backward(self, indexes, grad_outputs):
        x0, x1 = self.get_retained_inputs()
        y = self.get_retained_outputs()[0]
        gy = grad_outputs[0]
        ret = []
        for i in indexes:
            if i == 0:
                g = x1 * x0 ** (x1 - 1) * gy
            else:
                g = _log(x0) * y * gy
            ret.append(_sum_to_shape(g, self.inputs[i].shape))
        return tuple(ret)


class PowVarConst(_ConstantOp):

    _label_format = '_ ** %s'

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 1)
        type_check.argname(in_types, ('x',))
        type_check.expect(in_types[0].dtype.kind == 'f')

    def forward(self, inputs):
        self.retain_inputs((0,))
        return _force_array(inputs[0] ** self.value),

    def backward(self, indexes, grad_outputs):
        x = self.get_retained_inputs()[0]
        gy = grad_outputs[0]
        value = self.value
        if numpy.isscalar(value) and value == 2:
            g = (gy * x) * x.dtype.type(2)
        else:
            g = value * x ** (value - 1) * gy
        return _sum_to_shape(g, self.inputs[0].shape),


class PowConstVar(_ConstantOp):

    _label_format = '%s ** _'

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 1)
        type_check.argname(in_types, ('x',))
        type_check.expect(in_types[0].dtype.kind == 'f')

    def forward(self, inputs):
        self.retain_outputs((0,))
        return _force_array(self.value ** inputs[0]),

    def backward(self, indexes, grad_outputs):
        y = self.get_retained_outputs()[0]
        log_value = backend.get_array_module(y).log(self.value)
        if not numpy.isscalar(log_value):
            log_value = log_value.astype(y.dtype, copy=False)
        else:
            log_value = y.dtype.type(log_value)
        g = log_value * y * grad_outputs[0]
        return _sum_to_shape(g, self.inputs[0].shape),


def pow(self, rhs):  # noqa: A001 - operator name
    if isinstance(rhs, Variable):
        return PowVarVar().apply((self, rhs))[0]
    return PowVarConst(_preprocess_const(self, rhs)).apply((self,))[0]


def rpow(self, lhs):
    if isinstance(lhs, Variable):
        return PowVarVar().apply((lhs, self))[0]
    return PowConstVar(_preprocess_const(self, lhs)).apply((self,))[0]


class _Log(FunctionNode):
    """Natural logarithm, used by the gradient of `x ** y`."""

    def forward(self, inputs):
        self.retain_inputs((0,))
        xp = backend.get_array_module(*inputs)
        return _force_array(xp.log(inputs[0])),

    def backward(self, indexes, grad_outputs):
        x = self.get_retained_inputs()[0]
        return grad_outputs[0] / x,


def _log(x):
    return _Log().apply((x,))[0]


def matmul(self, rhs):
    return matmul_mod.matmul(self, rhs)


def rmatmul(self, lhs):
    return matmul_mod.matmul(lhs, self)


def _convert_value_to_string(value):
    if isinstance(value, Variable):
        value = value.array
    if numpy.isscalar(value):
        if value < 0:
            return '({})'.format(value)
        return str(value)
    if _is_array(value):
        return 'constant array'
    raise ValueError('Value must be a Variable, scalar or numpy.ndarray, got {}'.format(
        type(value)))


def install_variable_arithmetics():
    """Attach the arithmetic operators to [`Variable`][minichainer.variable.Variable].

    Called once, when this module is imported (its last line); calling it again is
    harmless."""
    Variable.__neg__ = neg
    Variable.__abs__ = absolute
    Variable.__add__ = add
    Variable.__radd__ = _radd
    Variable.__iadd__ = add
    Variable.__sub__ = sub
    Variable.__isub__ = sub
    Variable.__rsub__ = rsub
    Variable.__mul__ = mul
    Variable.__imul__ = mul
    Variable.__rmul__ = mul
    Variable.__truediv__ = div
    Variable.__itruediv__ = div
    Variable.__rtruediv__ = rdiv
    Variable.__floordiv__ = floordiv
    Variable.__ifloordiv__ = floordiv
    Variable.__rfloordiv__ = rfloordiv
    Variable.__pow__ = pow
    Variable.__ipow__ = pow
    Variable.__rpow__ = rpow
    Variable.__matmul__ = matmul
    Variable.__imatmul__ = matmul
    Variable.__rmatmul__ = rmatmul


# The one step that gives Variable its arithmetic operators: importing this module
# (minichainer.functions imports it; Variable's stand-in operators import it on first
# use, see variable._lazy_operator).  Chainer does it when chainer is imported.
install_variable_arithmetics()
