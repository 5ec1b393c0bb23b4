"""The maxout layer `Maxout`."""
import numpy

from minichainer import link
from minichainer.links.connection import linear

from minichainer.functions.activation import maxout as _maxout


class Maxout(link.Chain):
    """Fully-connected maxout layer: `y_i = max_j (W_ij x + b_ij)`.

    Args:
        in_size (int): Input dimension.
        out_size (int): Output dimension.
        pool_size (int): Number of pieces per output unit.
        initialW: Initializer; an array must have shape `(out_size, pool_size, in_size)`
            and a callable receives a view of that shape.
        initial_bias: Initial bias (default 0; an array has shape
            `(out_size, pool_size)`); None leaves the bias out.

    Raises:
        ValueError: an array initializer has the wrong number of dimensions.
    """

    def __init__(self, in_size, out_size, pool_size, initialW=None, initial_bias=0):
        super().__init__()
        linear_out_size = out_size * pool_size
        initialW = _flat_initializer('initialW', '3-D (out_size, pool_size, in_size)',
                                     initialW, (out_size, pool_size, in_size),
                                     (linear_out_size, in_size))
        initial_bias = _flat_initializer('initial_bias', '2-D (out_size, pool_size)',
                                         initial_bias, (out_size, pool_size),
                                         (linear_out_size,))
        with self.init_scope():
            self.linear = linear.Linear(in_size, linear_out_size,
                                        nobias=initial_bias is None, initialW=initialW,
                                        initial_bias=initial_bias)
        self.out_size = out_size
        self.pool_size = pool_size

    def forward(self, x):
        """Apply the maxout layer to `x` of shape (batch, in_size)."""
        return _maxout.maxout(self.linear(x), self.pool_size)


def _flat_initializer(name, expected, initializer, shape, flat_shape):
    # The initializer of the Linear's flat parameter from Maxout's `initializer` of
    # `shape`: an array is checked and reshaped, a callable wrapped; None or a
    # scalar is passed on.
    if initializer is None or numpy.isscalar(initializer):
        return initializer
    if isinstance(initializer, numpy.ndarray):
        if initializer.ndim != len(shape):
            raise ValueError('Maxout: {} must be {}, got ndim {}'.format(
                name, expected, initializer.ndim))
        return initializer.reshape(flat_shape)
    if callable(initializer):
        return _Reshaped(initializer, shape)
    return initializer


class _Reshaped:
    # Calls an initializer on a reshaped view of the array it is given.

    def __init__(self, initializer, shape):
        self.initializer = initializer
        self.shape = shape
        self.dtype = getattr(initializer, 'dtype', None)

    def __call__(self, array):
        view = array.reshape(self.shape)
        self.initializer(view)
        if not numpy.shares_memory(view, array):
            array[...] = view.reshape(array.shape)
