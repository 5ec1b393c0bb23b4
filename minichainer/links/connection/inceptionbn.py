"""The `InceptionBN` module (Inception with batch normalization)."""
from minichainer.functions.activation.relu import relu
from minichainer.functions.array.concat import concat
from minichainer.functions.pooling.average_pooling_2d import average_pooling_2d
from minichainer.functions.pooling.max_pooling_2d import max_pooling_2d
from minichainer import link
from minichainer.links.connection import convolution_2d
from minichainer.links.normalization import batch_normalization


class InceptionBNPoolTypeError(NotImplementedError, ValueError):
    """Unknown `pooltype` (Chainer raises `NotImplementedError`)."""


class InceptionBNArchitectureError(AssertionError, ValueError):
    """Inconsistent `out1`/`stride`/`proj_pool` (Chainer asserts them)."""


class InceptionBN(link.Chain):
    """Inception module with BatchNormalization after each convolution, two stacked 3x3
    convolutions instead of the 5x5 one, and a max or average pooling path.

    Args:
        in_channels (int): Input channels.
        out1 (int): Channels of the 1x1 path (0 leaves it out).
        proj3, out3 (int): Projection and output channels of the 3x3 path.
        proj33, out33 (int): Projection and output channels of the double 3x3 path.
        pooltype (str): `'max'` or `'avg'`.
        proj_pool (int or None): Projection channels of the pooling path (None: none).
        stride (int): Stride of the last convolution of each path and of the pooling.
        conv_init: Initializer of the convolution weights.
        dtype: Dtype of the BatchNormalization links.

    Raises:
        InceptionBNPoolTypeError: (`NotImplementedError` as in Chainer, and
            `ValueError`) `pooltype` is unknown.
        InceptionBNArchitectureError: (`AssertionError` as in Chainer, and
            `ValueError`) `out1 > 0` with `stride != 1` or without `proj_pool`.
    """

    def __init__(self, in_channels, out1, proj3, out3, proj33, out33, pooltype,
                 proj_pool=None, stride=1, conv_init=None, dtype=None):
        super().__init__()
        if pooltype not in ('max', 'avg'):
            raise InceptionBNPoolTypeError(
                "InceptionBN: pooltype must be 'max' or 'avg', got {!r}".format(pooltype))
        if out1 > 0 and (stride != 1 or proj_pool is None):
            raise InceptionBNArchitectureError(
                'InceptionBN: the 1x1 path (out1 > 0) needs stride == 1 and a '
                'proj_pool, got stride={} and proj_pool={}'.format(stride, proj_pool))
        conv = convolution_2d.Convolution2D
        bn = batch_normalization.BatchNormalization
        with self.init_scope():
            self.proj3 = conv(in_channels, proj3, 1, nobias=True, initialW=conv_init)
            self.conv3 = conv(proj3, out3, 3, pad=1, stride=stride, nobias=True,
                              initialW=conv_init)
            self.proj33 = conv(in_channels, proj33, 1, nobias=True, initialW=conv_init)
            self.conv33a = conv(proj33, out33, 3, pad=1, nobias=True, initialW=conv_init)
            self.conv33b = conv(out33, out33, 3, pad=1, stride=stride, nobias=True,
                                initialW=conv_init)
            self.proj3n = bn(proj3, dtype=dtype)
            self.conv3n = bn(out3, dtype=dtype)
            self.proj33n = bn(proj33, dtype=dtype)
            self.conv33an = bn(out33, dtype=dtype)
            self.conv33bn = bn(out33, dtype=dtype)
            if out1 > 0:
                self.conv1 = conv(in_channels, out1, 1, stride=stride, nobias=True,
                                  initialW=conv_init)
                self.conv1n = bn(out1, dtype=dtype)
            if proj_pool is not None:
                self.poolp = conv(in_channels, proj_pool, 1, nobias=True, initialW=conv_init)
                self.poolpn = bn(proj_pool, dtype=dtype)
        self.out1 = out1
        self.proj_pool = proj_pool
        self.stride = stride
        self.pooltype = pooltype

    def forward(self, x):
        """Concatenate the paths along the channels."""
        outs = []
        if self.out1 > 0:
            outs.append(relu(self.conv1n(self.conv1(x))))
        h3 = relu(self.proj3n(self.proj3(x)))
        outs.append(relu(self.conv3n(self.conv3(h3))))
        h33 = relu(self.proj33n(self.proj33(x)))
        h33 = relu(self.conv33an(self.conv33a(h33)))
        outs.append(relu(self.conv33bn(self.conv33b(h33))))
        if self.pooltype == 'max':
            p = max_pooling_2d(x, 3, stride=self.stride, pad=1, cover_all=False)
        else:
            p = average_pooling_2d(x, 3, stride=self.stride, pad=1)
        if self.proj_pool is not None:
            p = relu(self.poolpn(self.poolp(p)))
        outs.append(p)
        return concat(outs, axis=1)
