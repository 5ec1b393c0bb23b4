"""`maximum`: elementwise maximum of two variables (broadcasting)."""
import operator

from minichainer import backend
from minichainer import function_node
from minichainer import utils
from minichainer.functions import _fast
from minichainer.functions.array import broadcast
from minichainer.utils import array as array_utils
from minichainer.utils import type_check


def _check_float_pair(in_types):
    """Type check of `maximum`/`minimum`: float `x1` and `x2` of one dtype,
    broadcastable shapes."""
    type_check.argname(in_types, ('x1', 'x2'))
    type_check.expect(
        in_types[0].dtype.kind == 'f',
        in_types[0].dtype == in_types[1].dtype,
    )
    type_check.expect_broadcast_shapes(in_types[0].shape, in_types[1].shape)


class PairwiseSelect(function_node.FunctionNode):
    """Elementwise choice between `x1` and `x2`: the base of `Maximum` and `Minimum`.

    Subclasses set `_label` (the array module's function, `'maximum'` or
    `'minimum'`) and `_x1_wins(a1, a2)`, the mask of where `x1` is chosen; ties
    send the gradient to `x1`, as Chainer.
    """

    _label = None
    _x1_wins = None

    def check_type_forward(self, in_types):
        _check_float_pair(in_types)

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x1, x2 = inputs
        xp = backend.get_array_module(x1, x2)
        return utils.force_array(getattr(xp, self._label)(x1, x2)),

    def backward(self, indexes, grad_outputs):
        x1, x2 = self.get_retained_inputs()
        mask = self._x1_wins(x1.array, x2.array)
        return _SelectGrad(mask, x1.shape, x2.shape).run(grad_outputs)


class Maximum(PairwiseSelect):
    """Element-wise maximum of input variables."""

    _label = 'maximum'
    _x1_wins = staticmethod(operator.ge)


class _SelectGrad(function_node.FunctionNode):
    """Route `gy` to the first output where `cond` holds, else to the second,
    each summed down to its input's shape."""

    def __init__(self, cond, x1_shape, x2_shape):
        self.cond = cond
        self.x1_shape = x1_shape
        self.x2_shape = x2_shape

    def run(self, grad_outputs):
        """Apply (differentiable) or, without double backprop, compute directly."""
        if not _fast.needs_graph():
            gx1, gx2 = self.forward((grad_outputs[0].array,))
            return _fast.as_grad(gx1), _fast.as_grad(gx2)
        return self.apply(grad_outputs)

    def forward(self, inputs):
        gy, = inputs
        xp = backend.get_array_module(gy)
        zero = gy.dtype.type(0)
        gx1 = utils.force_array(xp.where(self.cond, gy, zero))
        gx2 = utils.force_array(xp.where(self.cond, zero, gy))
        return (utils.force_array(array_utils.sum_to(gx1, self.x1_shape)),
                utils.force_array(array_utils.sum_to(gx2, self.x2_shape)))

    def backward(self, indexes, grad_outputs):
        shape = self.cond.shape
        cond = self.cond
        g1, g2 = grad_outputs
        total = None
        if g1 is not None:
            if g1.shape != shape:
                g1 = broadcast.broadcast_to(g1, shape)
            total = g1 * cond.astype(g1.dtype)
        if g2 is not None:
            if g2.shape != shape:
                g2 = broadcast.broadcast_to(g2, shape)
            term = g2 * (~cond).astype(g2.dtype)
            total = term if total is None else total + term
        return total,


def maximum(x1, x2):
    """Element-wise maximum of input variables.

    Args:
        x1 (Variable or ndarray): Input to be compared (float).
        x2 (Variable or ndarray): Input to be compared, same dtype;
            the shapes must broadcast together.

    Returns:
        Variable: Output variable.
    """
    return Maximum().apply((x1, x2))[0]
