"""Trigonometric functions: ``sin``, ``cos``, ``tan``, ``arcsin``, ``arccos``,
``arctan`` and ``arctan2``."""
from minichainer import backend
from minichainer import function_node
from minichainer import utils
from minichainer.functions import _fast
from minichainer.functions.math import _elementwise
from minichainer.utils import type_check


class SinGrad(function_node.FunctionNode):
    """``gx = cos(x) * gy``, fused (the gradient of :class:`Sin`)."""

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x, gy = inputs
        xp = backend.get_array_module(x)
        gx = utils.force_array(xp.cos(x))
        gx *= gy
        return gx,

    def backward(self, indexes, grad_outputs):
        x, gy = self.get_retained_inputs()
        ggx, = grad_outputs
        ret = []
        if 0 in indexes:
            ret.append(-sin(x) * gy * ggx)
        if 1 in indexes:
            ret.append(cos(x) * ggx)
        return ret


class Sin(_elementwise.UnaryFloat):
    """Elementwise sine."""

    _label = 'sin'
    _grad_class = SinGrad


def sin(x):
    """Elementwise sin function."""
    return Sin().apply((x,))[0]


class CosGrad(function_node.FunctionNode):
    """``gx = -sin(x) * gy``, fused (the gradient of :class:`Cos`)."""

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x, gy = inputs
        xp = backend.get_array_module(x)
        gx = utils.force_array(xp.sin(x))
        xp.negative(gx, out=gx)
        gx *= gy
        return gx,

    def backward(self, indexes, grad_outputs):
        x, gy = self.get_retained_inputs()
        ggx, = grad_outputs
        ret = []
        if 0 in indexes:
            ret.append(-cos(x) * gy * ggx)
        if 1 in indexes:
            ret.append(-sin(x) * ggx)
        return ret


class Cos(_elementwise.UnaryFloat):
    """Elementwise cosine."""

    _label = 'cos'
    _grad_class = CosGrad


def cos(x):
    """Elementwise cos function."""
    return Cos().apply((x,))[0]


class Tan(_elementwise.UnaryFloat):
    """Elementwise tangent."""

    _label = 'tan'

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        gy, = grad_outputs
        if not _fast.needs_graph():
            c = backend.get_array_module(x.array).cos(x.array)
            c *= c
            return _fast.as_grad(utils.force_array(gy.array / c)),
        c = cos(x)
        return gy / (c * c),


def tan(x):
    """Elementwise tan function."""
    return Tan().apply((x,))[0]


def _gy_over_sqrt_one_minus_x2(xp, x, gy):
    """``gy / sqrt(1 - x^2)`` in one new array (the derivative of arcsin times gy)."""
    gx = utils.force_array(xp.square(x))
    xp.negative(gx, out=gx)
    gx += 1
    xp.sqrt(gx, out=gx)
    xp.divide(gy, gx, out=gx)
    return gx


class _InverseSineGrad(function_node.FunctionNode):
    """``gx = sign * gy / sqrt(1 - x^2)``, fused; ``sign`` is +1 for arcsin, -1 for arccos.

    Its own gradient: ``d/dx = sign * gy * x / (1 - x^2)^1.5`` and ``d/dgy`` is the same
    function applied to ``ggx``.
    """

    _sign = 1

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x, gy = inputs
        xp = backend.get_array_module(x)
        gx = _gy_over_sqrt_one_minus_x2(xp, x, gy)
        if self._sign < 0:
            xp.negative(gx, out=gx)
        return gx,

    def backward(self, indexes, grad_outputs):
        x, gy = self.get_retained_inputs()
        ggx, = grad_outputs
        ret = []
        if 0 in indexes:
            g = ggx * gy * x / ((1 - x * x) ** 1.5)
            ret.append(g if self._sign > 0 else -g)
        if 1 in indexes:
            ret.append(type(self)().apply((x, ggx))[0])
        return ret


class ArcsinGrad(_InverseSineGrad):
    """``gx = gy / sqrt(1 - x^2)``, fused (the gradient of :class:`Arcsin`)."""


class Arcsin(_elementwise.UnaryFloat):
    """Elementwise inverse sine."""

    _label = 'arcsin'
    _grad_class = ArcsinGrad


def arcsin(x):
    """Elementwise arcsine function ``y = arcsin(x)``."""
    return Arcsin().apply((x,))[0]


class ArccosGrad(_InverseSineGrad):
    """``gx = -gy / sqrt(1 - x^2)``, fused (the gradient of :class:`Arccos`)."""

    _sign = -1


class Arccos(_elementwise.UnaryFloat):
    """Elementwise inverse cosine."""

    _label = 'arccos'
    _grad_class = ArccosGrad


def arccos(x):
    """Elementwise arccosine function ``y = arccos(x)``."""
    return Arccos().apply((x,))[0]


class ArctanGrad(function_node.FunctionNode):
    """``gx = gy / (1 + x^2)``, fused (the gradient of :class:`Arctan`)."""

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x, gy = inputs
        xp = backend.get_array_module(x)
        gx = utils.force_array(xp.square(x))
        gx += 1
        xp.divide(gy, gx, out=gx)
        return gx,

    def backward(self, indexes, grad_outputs):
        x, gy = self.get_retained_inputs()
        ggx, = grad_outputs
        x_sq1 = x * x + 1
        ret = []
        if 0 in indexes:
            ret.append(-2 * gy * x * ggx / (x_sq1 * x_sq1))
        if 1 in indexes:
            ret.append(ggx / x_sq1)
        return ret


class Arctan(_elementwise.UnaryFloat):
    """Elementwise inverse tangent."""

    _label = 'arctan'
    _grad_class = ArctanGrad


def arctan(x):
    """Elementwise arctangent function ``y = arctan(x)``."""
    return Arctan().apply((x,))[0]


class Arctan2(function_node.FunctionNode):
    """Elementwise two-argument arctangent ``arctan(x1 / x2)`` with quadrant."""

    @property
    def label(self):
        return 'arctan2'

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x1', 'x2'))
        type_check.expect(in_types[0].dtype.kind == 'f')
        type_check.expect(in_types[1].dtype.kind == 'f')

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x1, x2 = inputs
        xp = backend.get_array_module(x1, x2)
        return utils.force_array(xp.arctan2(x1, x2)),

    def backward(self, indexes, grad_outputs):
        x1, x2 = self.get_retained_inputs()
        if not _fast.needs_graph():
            gx1, gx2 = Arctan2Grad().forward(
                (x1.array, x2.array, grad_outputs[0].array))
            return _fast.as_grad(gx1), _fast.as_grad(gx2)
        return Arctan2Grad().apply((x1, x2, grad_outputs[0]))


class Arctan2Grad(function_node.FunctionNode):
    """Gradients of :class:`Arctan2`: ``(x2 * gy, -x1 * gy) / (x1^2 + x2^2)``."""

    def forward(self, inputs):
        self.retain_inputs((0, 1, 2))
        x1, x2, gy = inputs
        sqnorm = x1 * x1 + x2 * x2
        gx1 = utils.force_array(x2 / sqnorm * gy)
        gx2 = utils.force_array(-x1 / sqnorm * gy)
        return gx1, gx2

    def backward(self, indexes, grad_outputs):
        x1, x2, gy = self.get_retained_inputs()
        ggx1, ggx2 = grad_outputs
        x1_sq = x1 * x1
        x2_sq = x2 * x2
        sqnorm = x1_sq + x2_sq
        sqnorm2 = sqnorm * sqnorm
        ret = []
        # Missing upstream gradients count as zero.
        if 0 in indexes:
            terms = []
            if ggx1 is not None:
                terms.append(-ggx1 * 2 * x1 * x2)
            if ggx2 is not None:
                terms.append(ggx2 * (x1_sq - x2_sq))
            ret.append(_sum_terms(terms) * gy / sqnorm2)
        if 1 in indexes:
            terms = []
            if ggx1 is not None:
                terms.append(ggx1 * (x1_sq - x2_sq))
            if ggx2 is not None:
                terms.append(ggx2 * 2 * x1 * x2)
            ret.append(_sum_terms(terms) * gy / sqnorm2)
        if 2 in indexes:
            terms = []
            if ggx1 is not None:
                terms.append(ggx1 * x2)
            if ggx2 is not None:
                terms.append(-ggx2 * x1)
            ret.append(_sum_terms(terms) / sqnorm)
        return ret


def _sum_terms(terms):
    total = terms[0]
    for t in terms[1:]:
        total = total + t
    return total


def arctan2(x1, x2):
    """Elementwise arctangent with two arguments.

    Args:
        x1 (~chainer.Variable or ndarray): Y-coordinates.
        x2 (~chainer.Variable or ndarray): X-coordinates.

    Returns:
        ~chainer.Variable: Angles in radians, in ``[-pi, pi]``.
    """
    return Arctan2().apply((x1, x2))[0]
