"""The bilinear layer `Bilinear`."""
import numpy

from minichainer import initializers
from minichainer import link
from minichainer import variable

from minichainer.functions.connection import bilinear as _bilinear


class BilinearShapeError(ValueError, AssertionError):
    """A given initial array has the wrong shape.

    Chainer asserts the shapes (`AssertionError`); this is also a
    `ValueError` for code written against earlier minichainer releases.
    """


def _check_shape(name, value, shape):
    if isinstance(value, numpy.ndarray) and value.shape != shape:
        raise BilinearShapeError('Bilinear: {} must have shape {}, got {}'.format(
            name, shape, value.shape))


class Bilinear(link.Link):
    """Bilinear layer: `y_k = e1^T W_k e2 + V1_k^T e1 + V2_k^T e2 + b_k`.

    Args:
        left_size (int): Dimension of `e1`.
        right_size (int): Dimension of `e2`.
        out_size (int): Output dimension.
        nobias (bool): Leave out V1, V2 and b.
        initialW: Initializer of W (shape `(left_size, right_size, out_size)`).
        initial_bias: None (V1, V2 LeCunNormal, b zero) or a tuple
            `(initialV1, initialV2, initialb)`.

    Raises:
        BilinearShapeError: (a `ValueError` and `AssertionError`) a given
            array has the wrong shape.
        ValueError: `initial_bias` is neither
            a tuple nor None.
    """

    def __init__(self, left_size, right_size, out_size, nobias=False, initialW=None,
                 initial_bias=None):
        super().__init__()
        self.in_sizes = (left_size, right_size)
        self.nobias = nobias
        with self.init_scope():
            shape = (left_size, right_size, out_size)
            _check_shape('initialW', initialW, shape)
            self.W = variable.Parameter(initializers.get_initializer(initialW), shape)
            if not nobias:
                V1_shape = (left_size, out_size)
                V2_shape = (right_size, out_size)
                b_shape = (out_size,)
                if isinstance(initial_bias, tuple):
                    initialV1, initialV2, initialb = initial_bias
                    _check_shape('initialV1', initialV1, V1_shape)
                    _check_shape('initialV2', initialV2, V2_shape)
                    _check_shape('initialb', initialb, b_shape)
                elif initial_bias is None:
                    initialV1 = initialV2 = None
                    initialb = 0
                else:
                    raise ValueError(
                        'Bilinear: initial_bias must be a tuple or None, got {}'.format(
                            type(initial_bias).__name__))
                self.V1 = variable.Parameter(
                    initializers.get_initializer(initialV1), V1_shape)
                self.V2 = variable.Parameter(
                    initializers.get_initializer(initialV2), V2_shape)
                self.b = variable.Parameter(initializers.get_initializer(initialb), b_shape)

    def forward(self, e1, e2):
        """Apply the bilinear map to the batches `e1` and `e2`."""
        if self.nobias:
            return _bilinear.bilinear(e1, e2, self.W)
        return _bilinear.bilinear(e1, e2, self.W, self.V1, self.V2, self.b)

    def zero_grads(self):
        """Deprecated alias of [`zerograds`][minichainer.link.Link.zerograds]."""
        self.zerograds()
