"""Shared bases of the elementwise math functions of one float input ``x``.

``UnaryFloat`` holds what ``sin``, ``exp``, ``log``, ``cosh``, ``log1p``, ...
have in common (the ``label``, the type check and the forward through the
NumPy/CuPy function of the same name); ``SpecialUnary`` does the same for the
``erf``/``ndtr`` family, whose gradients all have the form
``coeff * exp(power * z ** 2) * gy``.
"""
from minichainer import backend
from minichainer import function_node
from minichainer import utils
from minichainer.functions import _fast
from minichainer.functions.math import _special
from minichainer.utils import type_check


def check_float_x(in_types):
    """Type check of a function of one input named ``x`` of a float dtype."""
    type_check._argname(in_types, ('x',))
    type_check.expect(in_types[0].dtype.kind == 'f')


def rounded(x, name):
    """``xp.<name>(x)`` (``ceil``, ``floor``, ``fix``) in ``x``'s dtype, as a new
    Variable without a creator: rounding has no gradient, so it cuts the graph."""
    from minichainer import variable
    if isinstance(x, variable.Variable):
        x = x.array
    xp = backend.get_array_module(x)
    return variable.as_variable(utils.force_array(getattr(xp, name)(x), x.dtype))


class UnaryFloat(function_node.FunctionNode):
    """Elementwise function of one float input ``x``, retained for ``backward``.

    Subclasses set ``_label``: their ``label`` and the name of the array
    module's function computing the forward (e.g. ``'sin'`` for ``xp.sin``).
    When they set ``_grad_class`` (a FunctionNode taking ``(x, gy)`` and
    returning ``gx``), ``backward`` applies it (or, without double backprop,
    runs its ``forward`` on the arrays); otherwise they define ``backward``.
    """

    _label = None
    _grad_class = None

    @property
    def label(self):
        return self._label

    def check_type_forward(self, in_types):
        check_float_x(in_types)

    def forward(self, inputs):
        self.retain_inputs((0,))
        x, = inputs
        xp = backend.get_array_module(x)
        return utils.force_array(getattr(xp, self._label)(x)),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        if not _fast.needs_graph():
            return _fast.as_grad(
                self._grad_class().forward((x.array, grad_outputs[0].array))[0]),
        return self._grad_class().apply((x, grad_outputs[0]))


class UnaryFloatKeepsOutput(UnaryFloat):
    """:class:`UnaryFloat` that retains its output ``y`` instead of ``x``."""

    def forward(self, inputs):
        self.retain_outputs((0,))
        x, = inputs
        xp = backend.get_array_module(x)
        return utils.force_array(getattr(xp, self._label)(x)),


def _scaled_square(z, power):
    sq = z * z
    if power == 1:
        return sq
    if power == -1:
        return -sq
    return sq * power


class SpecialUnary(UnaryFloat):
    """Elementwise special function from :mod:`._special` (SciPy or fallback).

    The forward is ``_special.<_label>(x)`` cast back to ``x``'s dtype; the
    gradient is ``_coeff * exp(_power * z * z) * gy`` where ``z`` is the input
    ``x``, or the output ``y`` when ``_uses_output`` is set.
    """

    _coeff = None
    _power = None
    _uses_output = False

    def forward(self, inputs):
        if self._uses_output:
            self.retain_outputs((0,))
        else:
            self.retain_inputs((0,))
        x, = inputs
        return utils.force_array(getattr(_special, self._label)(x), x.dtype),

    def backward(self, indexes, grad_outputs):
        from minichainer.functions.math import exponential
        if self._uses_output:
            z, = self.get_retained_outputs()
        else:
            z, = self.get_retained_inputs()
        gy, = grad_outputs
        if not _fast.needs_graph():
            xp = backend.get_array_module(gy.array)
            gx = xp.exp(_scaled_square(z.array, self._power)) * self._coeff
            gx = gx * gy.array
            return _fast.as_grad(utils.force_array(gx, gy.dtype)),
        return self._coeff * exponential.exp(_scaled_square(z, self._power)) * gy,
