"""Pooling functions."""
from minichainer.functions.pooling.average_pooling_2d import average_pooling_2d  # noqa
from minichainer.functions.pooling.average_pooling_2d import AveragePooling2D  # noqa: F401
from minichainer.functions.pooling.average_pooling_nd import average_pooling_1d  # noqa
from minichainer.functions.pooling.average_pooling_nd import average_pooling_3d  # noqa
from minichainer.functions.pooling.average_pooling_nd import average_pooling_nd  # noqa
from minichainer.functions.pooling.average_pooling_nd import AveragePoolingND  # noqa: F401
from minichainer.functions.pooling.max_pooling_2d import max_pooling_2d  # noqa: F401
from minichainer.functions.pooling.max_pooling_2d import MaxPooling2D  # noqa: F401
from minichainer.functions.pooling.max_pooling_nd import max_pooling_1d  # noqa: F401
from minichainer.functions.pooling.max_pooling_nd import max_pooling_3d  # noqa: F401
from minichainer.functions.pooling.max_pooling_nd import max_pooling_nd  # noqa: F401
from minichainer.functions.pooling.max_pooling_nd import MaxPoolingND  # noqa: F401
from minichainer.functions.pooling.spatial_pyramid_pooling_2d import spatial_pyramid_pooling_2d  # noqa
from minichainer.functions.pooling.unpooling_2d import unpooling_2d  # noqa: F401
from minichainer.functions.pooling.unpooling_2d import Unpooling2D  # noqa: F401
from minichainer.functions.pooling.unpooling_nd import unpooling_1d  # noqa: F401
from minichainer.functions.pooling.unpooling_nd import unpooling_3d  # noqa: F401
from minichainer.functions.pooling.unpooling_nd import unpooling_nd  # noqa: F401
from minichainer.functions.pooling.unpooling_nd import UnpoolingND  # noqa: F401
from minichainer.functions.pooling.upsampling_2d import upsampling_2d  # noqa: F401
from minichainer.functions.pooling.upsampling_2d import Upsampling2D  # noqa: F401

__all__ = [
    'average_pooling_1d', 'average_pooling_2d', 'average_pooling_3d', 'average_pooling_nd',
    'max_pooling_1d', 'max_pooling_2d', 'max_pooling_3d', 'max_pooling_nd',
    'spatial_pyramid_pooling_2d',
    'unpooling_1d', 'unpooling_2d', 'unpooling_3d', 'unpooling_nd', 'upsampling_2d',
    # FunctionNode classes Chainer exports from chainer.functions
    'AveragePooling2D',
    'AveragePoolingND',
    'MaxPooling2D',
    'MaxPoolingND',
    'Unpooling2D',
    'UnpoolingND',
    'Upsampling2D',
]
