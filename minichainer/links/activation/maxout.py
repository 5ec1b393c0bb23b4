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
        if initialW is None or numpy.isscalar(initialW):
            pass
        elif isinstance(initialW, numpy.ndarray):
            if initialW.ndim != 3:
                raise ValueError('Maxout: initialW must be 3-D (out_size, pool_size, '
                                 'in_size), got ndim {}'.format(initialW.ndim))
            initialW = initialW.reshape(linear_out_size, in_size)
        elif callable(initialW):
            initialW = _Reshaped(initialW, (out_size, pool_size, in_size))
        if initial_bias is None or numpy.isscalar(initial_bias):
            pass
        elif isinstance(initial_bias, numpy.ndarray):
            if initial_bias.ndim != 2:
                raise ValueError('Maxout: initial_bias must be 2-D (out_size, pool_size), '
                                 'got ndim {}'.format(initial_bias.ndim))
            initial_bias = initial_bias.reshape(linear_out_size)
        elif callable(initial_bias):
            initial_bias = _Reshaped(initial_bias, (out_size, pool_size))
        with self.init_scope():
            self.linear = linear.Linear(in_size, linear_out_size,
                                        nobias=initial_bias is None, initialW=initialW,
                                        initial_bias=initial_bias)
        self.out_size = out_size
        self.pool_size = pool_size

    def forward(self, x):
        """Apply the maxout layer to `x` of shape (batch, in_size)."""
        return _maxout.maxout(self.linear(x), self.pool_size)


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
