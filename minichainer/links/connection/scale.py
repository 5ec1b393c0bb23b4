"""The broadcasted scaling layer `Scale`."""
from minichainer import configuration
from minichainer import link
from minichainer.links.connection import bias as bias_module
from minichainer import variable

from minichainer.functions.math import scale as _scale


def _bad_argc(msg):
    # Chainer asserts the argument count in debug mode (AssertionError);
    # otherwise a clear TypeError.
    if configuration.config.debug:
        raise AssertionError(msg)
    raise TypeError(msg)


class Scale(link.Chain):
    """Multiply by a scale broadcast along `axis`, optionally adding a bias.

    Args:
        axis (int): First axis of the input the scale is aligned with.
        W_shape (tuple or None): Shape of the learnable scale `W` (initialized to 1);
            None makes the link take the scale as a second input.
        bias_term (bool): Add a learnable [`Bias`][minichainer.links.connection.bias.Bias] child
            `bias`.
        bias_shape (tuple): Shape of the bias when `W_shape` is None.

    Raises:
        ValueError: `bias_term` without `W_shape` and without `bias_shape`.
    """

    def __init__(self, axis=1, W_shape=None, bias_term=False, bias_shape=None):
        super().__init__()
        self.axis = axis
        with self.init_scope():
            if W_shape is not None:
                self.W = variable.Parameter(1, W_shape)
                if bias_term:
                    self.bias = bias_module.Bias(axis, W_shape)
            elif bias_term:
                if bias_shape is None:
                    raise ValueError(
                        'Scale: bias_shape must be given when W_shape is None and '
                        'bias_term is True')
                self.bias = bias_module.Bias(axis, bias_shape)

    def forward(self, *xs):
        """`x * W` (or `x * y` for two inputs), plus the bias if any."""
        if hasattr(self, 'W'):
            if len(xs) != 1:
                _bad_argc('Scale with a learnt W takes 1 input (x), got {}'.format(len(xs)))
            z = _scale.scale(xs[0], self.W, self.axis)
        else:
            if len(xs) != 2:
                _bad_argc('Scale without a learnt W takes 2 inputs (x, y), got {}'
                          .format(len(xs)))
            z = _scale.scale(xs[0], xs[1], self.axis)
        if hasattr(self, 'bias'):
            return self.bias(z)
        return z
