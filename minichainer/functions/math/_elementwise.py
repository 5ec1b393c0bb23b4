"""Shared bases of the elementwise math functions of one float input `x`.

`UnaryFloat` holds what `sin`, `exp`, `log`, `cosh`, `log1p`, ...
have in common (the `label`, the type check and the forward through the
NumPy/CuPy function of the same name); `SpecialUnary` does the same for the
`erf`/`ndtr` family, whose gradients all have the form
`coeff * exp(power * z ** 2) * gy`.
"""
from minichainer import backend
from minichainer import function_node
from minichainer import functions
from minichainer import utils
from minichainer import variable
from minichainer.functions import _fast
from minichainer.functions.math import _axis
from minichainer.functions.math import _special
from minichainer.utils import type_check


def check_float_x(in_types):
    """Type check of a function of one input named `x` of a float dtype."""
    type_check.argname(in_types, ('x',))
    type_check.expect(in_types[0].dtype.kind == 'f')


def check_float_x_ndim(in_types, min_ndim):
    """Type check of a function of one float input `x` of ndim >= `min_ndim`;
    returns the type of `x`."""
    type_check.argname(in_types, ('x',))
    x_type, = in_types
    type_check.expect(
        x_type.dtype.kind == 'f',
        x_type.ndim >= min_ndim,
    )
    return x_type


def rounded(x, name):
    """`xp.<name>(x)` (`ceil`, `floor`, `fix`) in `x`'s dtype, as a new
    Variable without a creator: rounding has no gradient, so it cuts the graph."""
    if isinstance(x, variable.Variable):
        x = x.array
    xp = backend.get_array_module(x)
    return variable.as_variable(utils.force_array(getattr(xp, name)(x), x.dtype))


class FloatInput(function_node.FunctionNode):
    """Function node of one input `x` of a float dtype (type-checks it so)."""

    def check_type_forward(self, in_types):
        check_float_x(in_types)


class FloatAxisReduction(FloatInput):
    """Function node of one float input `x` reduced over its axes `self.axis`
    (a tuple of ints, or None for all), which it type-checks."""

    def check_type_forward(self, in_types):
        check_float_x(in_types)
        _axis.check_axes(type_check, in_types[0], self.axis)


class UnaryFloat(FloatInput):
    """Elementwise function of one float input `x`, its gradient given by one expression.

    Subclasses set `_label`: their `label` and the name of the array
    module's function computing the forward (e.g. `'sin'` for `xp.sin`).
    `_gradient(m, z, gy)` is the gradient `gx` written once over a namespace
    `m`: `z` is the retained input `x` (or the output `y` when
    `_uses_output` is set). Without double backprop it runs on the arrays
    with `m` the array module (one pass, NumPy reusing temporaries in place);
    with double backprop it runs on the Variables with `m` being
    `minichainer.functions`, so the gradient is itself differentiable.
    The names used from `m` must exist in both (`cos`, `sqrt`, `square`, ...).
    """

    _label = None
    _uses_output = False

    @staticmethod
    def _gradient(m, z, gy):
        raise NotImplementedError

    @property
    def label(self):
        return self._label

    def _retain(self):
        if self._uses_output:
            self.retain_outputs((0,))
        else:
            self.retain_inputs((0,))

    def forward(self, inputs):
        self._retain()
        x, = inputs
        xp = backend.get_array_module(x)
        return utils.force_array(getattr(xp, self._label)(x)),

    def backward(self, indexes, grad_outputs):
        if self._uses_output:
            z, = self.get_retained_outputs()
        else:
            z, = self.get_retained_inputs()
        gy, = grad_outputs
        if _fast.needs_graph():
            return self._gradient(functions, z, gy),
        z = z.array
        gy = gy.array
        xp = backend.get_array_module(z)
        if z.ndim == 0:
            # On NumPy 1.26 a Python scalar in the expression would widen a 0-d
            # float32 array to float64; a 1-element view keeps the dtype.
            return _fast.as_grad(self._gradient(xp, z.reshape(1), gy.reshape(1)).reshape(())),
        return _fast.as_grad(self._gradient(xp, z, gy)),


class UnaryFloatKeepsOutput(UnaryFloat):
    """`UnaryFloat` that retains its output `y` instead of `x`."""

    _uses_output = True


def _scaled_square(z, power):
    sq = z * z
    if power == 1:
        return sq
    if power == -1:
        return -sq
    return sq * power


class SpecialUnary(UnaryFloat):
    """Elementwise special function from `_special` (SciPy or fallback).

    The forward is `_special.<_label>(x)` cast back to `x`'s dtype; the
    gradient is `_coeff * exp(_power * z * z) * gy` where `z` is the input
    `x`, or the output `y` when `_uses_output` is set.
    """

    _coeff = None
    _power = None
    _uses_output = False

    def forward(self, inputs):
        self._retain()
        x, = inputs
        return utils.force_array(getattr(_special, self._label)(x), x.dtype),

    def _gradient(self, m, z, gy):
        return self._coeff * m.exp(_scaled_square(z, self._power)) * gy
