"""The broadcasted bias layer ``Bias``."""
import importlib

from minichainer import link
from minichainer import variable

_bias = importlib.import_module('minichainer.functions.math.bias')


class Bias(link.Link):
    """Add a bias broadcast along ``axis``.

    With ``shape`` given, the bias is the learnable parameter ``b`` (initialized to 0) and
    the link takes one input; otherwise it takes two inputs ``(x, b)``.
    """

    def __init__(self, axis=1, shape=None):
        super().__init__()
        if shape is not None:
            with self.init_scope():
                self.b = variable.Parameter(0, shape)
        self.axis = axis

    def forward(self, *xs):
        """``x + b`` with ``b`` broadcast from ``axis``."""
        if hasattr(self, 'b'):
            if len(xs) != 1:
                raise TypeError('Bias with a learnt b takes 1 input, got {}'.format(len(xs)))
            return _bias.bias(xs[0], self.b, self.axis)
        if len(xs) != 2:
            raise TypeError('Bias without a learnt b takes 2 inputs (x, b), got {}'.format(
                len(xs)))
        return _bias.bias(xs[0], xs[1], self.axis)
