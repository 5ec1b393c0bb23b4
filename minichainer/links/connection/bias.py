"""The broadcasted bias layer `Bias`."""
from minichainer import configuration
from minichainer import link
from minichainer import variable

from minichainer.functions.math import bias as _bias


def _bad_argc(msg):
    # Chainer asserts the argument count in debug mode (AssertionError);
    # otherwise a clear TypeError.
    if configuration.config.debug:
        raise AssertionError(msg)
    raise TypeError(msg)


class Bias(link.Link):
    """Add a bias broadcast along `axis`.

    With `shape` given, the bias is the learnable parameter `b` (initialized to 0) and
    the link takes one input; otherwise it takes two inputs `(x, b)`.
    """

    def __init__(self, axis=1, shape=None):
        super().__init__()
        if shape is not None:
            with self.init_scope():
                self.b = variable.Parameter(0, shape)
        self.axis = axis

    def forward(self, *xs):
        """`x + b` with `b` broadcast from `axis`."""
        if hasattr(self, 'b'):
            if len(xs) != 1:
                _bad_argc('Bias with a learnt b takes 1 input (x), got {}'.format(len(xs)))
            return _bias.bias(xs[0], self.b, self.axis)
        if len(xs) != 2:
            _bad_argc('Bias without a learnt b takes 2 inputs (x, b), got {}'.format(len(xs)))
        return _bias.bias(xs[0], xs[1], self.axis)
