"""Residual networks with 50, 101 and 152 layers (`chainer.links.model.vision.resnet`).

K. He et al., Deep Residual Learning for Image Recognition
(https://arxiv.org/abs/1512.03385). The pre-trained weights are MSRA's Caffe models
(https://github.com/KaimingHe/deep-residual-networks) converted to `.npz`.
"""
import collections
import warnings

from minichainer.functions.activation.relu import relu
from minichainer.functions.activation.softmax import softmax
from minichainer.functions.array.reshape import reshape
from minichainer.functions.pooling.average_pooling_2d import average_pooling_2d
from minichainer.functions.pooling.max_pooling_2d import max_pooling_2d
from minichainer.initializers import constant
from minichainer.initializers import normal
from minichainer import link
from minichainer.links._check import check_size
from minichainer.links.connection.convolution_2d import Convolution2D
from minichainer.links.connection.linear import Linear
from minichainer.links.model import vision as _vision
from minichainer.links.normalization.batch_normalization import BatchNormalization

# Mean pixel (BGR) of the MSRA models; the paper subtracts a mean image, a mean pixel
# allows any input size.
_MEAN_BGR = (103.063, 115.903, 123.152)

# Number of bottlenecks in res2 ... res5.
_DEPTHS = {50: (3, 4, 6, 3), 101: (3, 4, 23, 3), 152: (3, 8, 36, 3)}

__getattr__ = _vision.module_getattr(__name__)


class ResNetLayers(_vision.VisionModel):
    """ResNet (base of [`ResNet50Layers`][minichainer.links.model.vision.resnet.ResNet50Layers],
    [`ResNet101Layers`][minichainer.links.model.vision.resnet.ResNet101Layers] and
    [`ResNet152Layers`][minichainer.links.model.vision.resnet.ResNet152Layers]).

    `conv1` (7x7, stride 2) + `bn1` + ReLU, 3x3 max pooling, four
    `BuildingBlock` stages `res2` ... `res5` (256, 512, 1024 and 2048
    channels), global average pooling `pool5` and `fc6` (2048 -> 1000). Any input
    of at least 32x32 works for the layers up to `pool5`.

    Args:
        pretrained_model (str or None): A path ending in `.caffemodel` (the
            subclasses' `'auto'` means `ResNet-{n_layers}-model.caffemodel`) loads
            the converted `ResNet-{n_layers}-model.npz` from
            `<dataset root>/pfnet/chainer/models/` (minichainer cannot convert the
            Caffe model itself; the file Chainer made is used); another path loads that
            `.npz` file; None draws the convolution weights from
            `HeNormal(scale=1.0)` (otherwise they start at zero before loading).
        n_layers (int): 50, 101 or 152.
        downsample_fb (bool): Put the stride 2 of the downsampling bottlenecks on their
            3x3 convolution (Facebook's ResNet) instead of the first 1x1 convolution
            (MSRA's original).

    Attributes:
        available_layers (list of str): Layer names accepted by `forward`/`extract`.
    """

    _mean_bgr = _MEAN_BGR
    _extract_default = 'pool5'

    def __init__(self, pretrained_model, n_layers, downsample_fb=False):
        super().__init__()
        if n_layers not in _DEPTHS:
            raise ValueError('ResNetLayers: n_layers must be 50, 101 or 152, got {!r}'
                             .format(n_layers))
        if isinstance(pretrained_model, str) and pretrained_model.endswith('.caffemodel'):
            path = _vision.pretrained_path(
                type(self).__name__, pretrained_model,
                'ResNet-{}-model.npz'.format(n_layers),
                'chainer.links.ResNet{}Layers() converts {} found in that directory and '
                'writes it; get the caffemodel from '
                'https://github.com/KaimingHe/deep-residual-networks'.format(
                    n_layers, pretrained_model))
        else:
            path = _vision.pretrained_path(type(self).__name__, pretrained_model)
        if pretrained_model:
            # the weights are overwritten by the loaded ones: skip the random draws
            initialW = constant.Zero()
        else:
            initialW = normal.HeNormal(scale=1.0)
        depths = _DEPTHS[n_layers]
        with self.init_scope():
            self.conv1 = Convolution2D(3, 64, 7, 2, 3, initialW=initialW)
            self.bn1 = BatchNormalization(64)
            in_channels = 64
            for stage, depth in enumerate(depths):
                mid = 64 << stage
                setattr(self, 'res{}'.format(stage + 2), BuildingBlock(
                    depth, in_channels, mid, mid * 4, 1 if stage == 0 else 2,
                    initialW=initialW, downsample_fb=downsample_fb))
                in_channels = mid * 4
            self.fc6 = Linear(2048, 1000)

        _vision.load_pretrained(self, path)

    @property
    def functions(self):
        """Ordered dict: layer name -> callables applied in turn."""
        return collections.OrderedDict([
            ('conv1', [self.conv1, self.bn1, relu]),
            ('pool1', [_max_pooling_2d]),
            ('res2', [self.res2]),
            ('res3', [self.res3]),
            ('res4', [self.res4]),
            ('res5', [self.res5]),
            ('pool5', [_global_average_pooling_2d]),
            ('fc6', [self.fc6]),
            ('prob', [softmax]),
        ])


class _FixedDepthResNet(ResNetLayers):
    # ResNet50/101/152Layers: the depth and the cached file name come from ``_depth``.
    _depth = None

    def __init__(self, pretrained_model='auto', downsample_fb=False):
        if pretrained_model == 'auto':
            pretrained_model = 'ResNet-{}-model.caffemodel'.format(self._depth)
        super().__init__(pretrained_model, self._depth, downsample_fb)


class ResNet50Layers(_FixedDepthResNet):
    """ResNet with 50 layers (see `ResNetLayers`).

    Args:
        pretrained_model (str or None): `'auto'` (`ResNet-50-model.npz` in the
            dataset cache), the path of an `.npz` file, or None for random weights.
        downsample_fb (bool): Facebook-style downsampling (stride on the 3x3 conv).
    """

    _depth = 50


class ResNet101Layers(_FixedDepthResNet):
    """ResNet with 101 layers (see `ResNetLayers`).

    Args:
        pretrained_model (str or None): `'auto'` (`ResNet-101-model.npz` in the
            dataset cache), the path of an `.npz` file, or None for random weights.
        downsample_fb (bool): Facebook-style downsampling (stride on the 3x3 conv).
    """

    _depth = 101


class ResNet152Layers(_FixedDepthResNet):
    """ResNet with 152 layers (see `ResNetLayers`).

    Args:
        pretrained_model (str or None): `'auto'` (`ResNet-152-model.npz` in the
            dataset cache), the path of an `.npz` file, or None for random weights.
        downsample_fb (bool): Facebook-style downsampling (stride on the 3x3 conv).
    """

    _depth = 152


def prepare(image, size=(224, 224)):
    """Turn an RGB image into ResNet input, a `(3, H, W)` BGR array less the mean pixel
    (103.063, 115.903, 123.152): see [`prepare_image`][minichainer.links.model.vision.prepare_image]
    for `image` and `size` (PIL's `(width, height)`). ImportError without Pillow."""
    return _vision.prepare_image(image, size, _MEAN_BGR, 'resnet.prepare')


class BuildingBlock(link.Chain):
    """A ResNet stage: one `BottleneckA` (`a`) then `n_layers - 1`
    `BottleneckB` (`b1`, `b2`, ...).

    Args:
        n_layers (int): Number of bottlenecks (the former name `n_layer` is accepted
            as a keyword with a DeprecationWarning).
        in_channels (int): Input channels.
        mid_channels (int): Channels inside the bottlenecks.
        out_channels (int): Output channels.
        stride (int or pair of ints): Stride of the first bottleneck.
        initialW: Initializer of the convolution weights.
        downsample_fb (bool): Stride on the 3x3 convolution (Facebook's ResNet) instead
            of the first 1x1 convolution (MSRA's).
    """

    def __init__(self, n_layers=None, in_channels=None, mid_channels=None,
                 out_channels=None, stride=None, initialW=None, downsample_fb=None,
                 **kwargs):
        super().__init__()
        if 'n_layer' in kwargs:
            warnings.warn('BuildingBlock: the argument n_layer is deprecated; use '
                          'n_layers', DeprecationWarning)
            n_layers = kwargs.pop('n_layer')
        if kwargs:
            raise TypeError('BuildingBlock() got unexpected keyword argument(s) {}'.format(
                ', '.join(repr(k) for k in sorted(kwargs))))
        check_size('BuildingBlock', 'n_layers', n_layers)
        if n_layers < 1:
            raise ValueError('BuildingBlock: n_layers must be at least 1, got {}'.format(
                n_layers))
        with self.init_scope():
            self.a = BottleneckA(in_channels, mid_channels, out_channels, stride,
                                 initialW, downsample_fb)
            self._forward = ['a']
            for i in range(1, n_layers):
                name = 'b{}'.format(i)
                setattr(self, name, BottleneckB(out_channels, mid_channels, initialW))
                self._forward.append(name)

    def forward(self, x):
        for name in self._forward:
            x = getattr(self, name)(x)
        return x


def _conv_bn(owner, index, in_channels, out_channels, ksize, stride, initialW):
    """Register `conv<index>` (no bias) and `bn<index>` on `owner`."""
    setattr(owner, 'conv{}'.format(index), Convolution2D(
        in_channels, out_channels, ksize, stride, ksize // 2, initialW=initialW,
        nobias=True))
    setattr(owner, 'bn{}'.format(index), BatchNormalization(out_channels))


class BottleneckA(link.Chain):
    """Bottleneck that changes the channels (and, with `stride`, the resolution).

    `1x1 -> 3x3 -> 1x1` convolutions (`conv1`-`conv3`, each with batch
    normalization `bn1`-`bn3`) plus a projection shortcut `conv4`/`bn4`; the
    sum goes through ReLU.

    Args:
        in_channels (int): Input channels.
        mid_channels (int): Channels of the inner convolutions.
        out_channels (int): Output channels.
        stride (int or pair of ints): Downsampling stride.
        initialW: Initializer of the convolution weights.
        downsample_fb (bool): Stride on the 3x3 convolution (Facebook's ResNet) instead
            of the first 1x1 one (MSRA's).
    """

    def __init__(self, in_channels, mid_channels, out_channels, stride=2, initialW=None,
                 downsample_fb=False):
        super().__init__()
        stride_1x1, stride_3x3 = (1, stride) if downsample_fb else (stride, 1)
        with self.init_scope():
            _conv_bn(self, 1, in_channels, mid_channels, 1, stride_1x1, initialW)
            _conv_bn(self, 2, mid_channels, mid_channels, 3, stride_3x3, initialW)
            _conv_bn(self, 3, mid_channels, out_channels, 1, 1, initialW)
            _conv_bn(self, 4, in_channels, out_channels, 1, stride, initialW)

    def forward(self, x):
        h = relu(self.bn1(self.conv1(x)))
        h = relu(self.bn2(self.conv2(h)))
        h = self.bn3(self.conv3(h))
        return relu(h + self.bn4(self.conv4(x)))


class BottleneckB(link.Chain):
    """Bottleneck with an identity shortcut (same channels and resolution).

    `1x1 -> 3x3 -> 1x1` convolutions `conv1`-`conv3` with batch normalization
    `bn1`-`bn3`; the input is added before the final ReLU.

    Args:
        in_channels (int): Input and output channels.
        mid_channels (int): Channels of the inner convolutions.
        initialW: Initializer of the convolution weights.
    """

    def __init__(self, in_channels, mid_channels, initialW=None):
        super().__init__()
        with self.init_scope():
            _conv_bn(self, 1, in_channels, mid_channels, 1, 1, initialW)
            _conv_bn(self, 2, mid_channels, mid_channels, 3, 1, initialW)
            _conv_bn(self, 3, mid_channels, in_channels, 1, 1, initialW)

    def forward(self, x):
        h = relu(self.bn1(self.conv1(x)))
        h = relu(self.bn2(self.conv2(h)))
        h = self.bn3(self.conv3(h))
        return relu(h + x)


def _max_pooling_2d(x):
    return max_pooling_2d(x, ksize=3, stride=2)


def _global_average_pooling_2d(x):
    n, channels, height, width = x.shape
    h = average_pooling_2d(x, (height, width), stride=1)
    return reshape(h, (n, channels))
