"""Base class of the N-dimensional pooling functions, `PoolingND` (Chainer's name,
`_PoolingND`, is kept as an alias for code that subclasses it), and
`check_spatial_ndim` (from `utils/conv_nd.py`, shared with the convolutions)."""
from minichainer import function_node
from minichainer.utils import conv_nd
from minichainer.utils import type_check


class PoolingND(function_node.FunctionNode):
    """Base class of pooling function over a set of N-dimensional planes."""

    def __init__(self, ndim, ksize, stride=None, pad=0, cover_all=True,
                 return_indices=False):
        if stride is None:
            stride = ksize
        if ndim <= 0:
            raise ValueError('pooling operation requires at least one spatial dimension, '
                             'got ndim={}'.format(ndim))
        self.ndim = ndim
        self.ksize = conv_nd.as_tuple(ksize, ndim)
        self.stride = conv_nd.as_tuple(stride, ndim)
        self.pad = conv_nd.as_tuple(pad, ndim)
        self.cover_all = cover_all
        self.return_indices = return_indices

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x',))
        x_type = in_types[0]
        type_check.expect(
            x_type.dtype.kind == 'f',
            x_type.ndim == 2 + self.ndim,
        )



# Chainer's name of the base class
_PoolingND = PoolingND
check_spatial_ndim = conv_nd.check_spatial_ndim
