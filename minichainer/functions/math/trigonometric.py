"""Trigonometric functions: `sin`, `cos`, `tan`, `arcsin`, `arccos`,
`arctan` and `arctan2`."""
from minichainer import backend
from minichainer import function_node
from minichainer import utils
from minichainer.functions import _fast
from minichainer.functions.math import _elementwise
from minichainer.utils import type_check


def _tan_gradient(m, x, gy):
    c = m.cos(x)
    return gy / (c * c)


def _one_minus_square(m, x):
    return 1 - m.square(x)


class Sin(_elementwise.UnaryFloat):
    """Elementwise sine."""

    _label = 'sin'
    _gradient = staticmethod(lambda m, x, gy: m.cos(x) * gy)


def sin(x):
    """Elementwise sin function."""
    return Sin().apply((x,))[0]


class Cos(_elementwise.UnaryFloat):
    """Elementwise cosine."""

    _label = 'cos'
    _gradient = staticmethod(lambda m, x, gy: -m.sin(x) * gy)


def cos(x):
    """Elementwise cos function."""
    return Cos().apply((x,))[0]


class Tan(_elementwise.UnaryFloat):
    """Elementwise tangent."""

    _label = 'tan'
    _gradient = staticmethod(_tan_gradient)


def tan(x):
    """Elementwise tan function."""
    return Tan().apply((x,))[0]


class Arcsin(_elementwise.UnaryFloat):
    """Elementwise inverse sine."""

    _label = 'arcsin'
    _gradient = staticmethod(lambda m, x, gy: gy / m.sqrt(_one_minus_square(m, x)))


def arcsin(x):
    """Elementwise arcsine function `y = arcsin(x)`."""
    return Arcsin().apply((x,))[0]


class Arccos(_elementwise.UnaryFloat):
    """Elementwise inverse cosine."""

    _label = 'arccos'
    _gradient = staticmethod(lambda m, x, gy: -gy / m.sqrt(_one_minus_square(m, x)))


def arccos(x):
    """Elementwise arccosine function `y = arccos(x)`."""
    return Arccos().apply((x,))[0]


class Arctan(_elementwise.UnaryFloat):
    """Elementwise inverse tangent."""

    _label = 'arctan'
    _gradient = staticmethod(lambda m, x, gy: gy / (m.square(x) + 1))


def arctan(x):
    """Elementwise arctangent function `y = arctan(x)`."""
    return Arctan().apply((x,))[0]


class Arctan2(function_node.FunctionNode):
    """Elementwise two-argument arctangent `arctan(x1 / x2)` with quadrant."""

    @property
    def label(self):
        return 'arctan2'

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x1', 'x2'))
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
    """Gradients of `Arctan2`: `(x2 * gy, -x1 * gy) / (x1^2 + x2^2)`."""

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
        x1 (Variable or ndarray): Y-coordinates.
        x2 (Variable or ndarray): X-coordinates.

    Returns:
        Variable: Angles in radians, in `[-pi, pi]`.
    """
    return Arctan2().apply((x1, x2))[0]
