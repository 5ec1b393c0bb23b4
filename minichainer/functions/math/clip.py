"""`clip`: limit values to `[x_min, x_max]`."""
from minichainer import backend
from minichainer import function_node
from minichainer import utils
from minichainer.functions import _fast
from minichainer.functions.math import _elementwise
from minichainer.utils import type_check


class Clip(_elementwise.FloatInput):
    """Clips (limits) elements of input variable."""

    def __init__(self, x_min, x_max):
        if x_min is None and x_max is None:
            raise ValueError('clip: at least one of x_min and x_max must be given, '
                             'got both None')
        if x_min is not None and x_max is not None and x_min >= x_max:
            raise ValueError('clip: x_min must be less than x_max, got x_min={} '
                             'and x_max={}'.format(x_min, x_max))
        self.x_min = x_min
        self.x_max = x_max

    def forward(self, inputs):
        self.retain_inputs((0,))
        x, = inputs
        xp = backend.get_array_module(x)
        return utils.force_array(xp.clip(x, self.x_min, self.x_max), x.dtype),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        grad = ClipGrad(x.array, self.x_min, self.x_max)
        if not _fast.needs_graph():
            return _fast.as_grad(grad.forward((grad_outputs[0].array,))[0]),
        return grad.apply(grad_outputs)


class ClipGrad(function_node.FunctionNode):
    """Passes the gradient where `x_min <= x <= x_max` (bounds inclusive)."""

    def __init__(self, x, x_min, x_max, cond=None):
        if cond is not None:
            self.cond = cond
            return
        if x_min is None:
            cond = x <= x_max
        elif x_max is None:
            cond = x_min <= x
        else:
            cond = (x_min <= x) & (x <= x_max)
        self.cond = cond

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('gy',))
        type_check.expect(in_types[0].dtype.kind == 'f')

    def forward(self, inputs):
        gy, = inputs
        return utils.force_array(gy * self.cond, gy.dtype),

    def backward(self, indexes, grad_outputs):
        return ClipGrad(None, None, None, cond=self.cond).apply(grad_outputs)


def clip(x, x_min, x_max):
    """Clips (limits) elements of input variable.

    Elements outside `[x_min, x_max]` are set to the interval edges; the
    gradient at `x_min` and `x_max` themselves is 1.

    Args:
        x (Variable or ndarray): Input variable to be clipped.
        x_min (float or None): Minimum value (None: no lower bound).
        x_max (float or None): Maximum value (None: no upper bound).

    Returns:
        Variable: Output variable.

    Raises:
        ValueError: both bounds are None, or `x_min >= x_max`.
    """
    return Clip(x_min, x_max).apply((x,))[0]
