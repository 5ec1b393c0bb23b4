"""VGG networks with 16 and 19 weight layers (`chainer.links.model.vision.vgg`).

K. Simonyan and A. Zisserman, Very Deep Convolutional Networks for Large-Scale Image
Recognition (https://arxiv.org/abs/1409.1556). The pre-trained weights (converted
from the VGG team's Caffe models) are released under CC BY.
"""
import collections

from minichainer.functions.activation.relu import relu
from minichainer.functions.activation.softmax import softmax
from minichainer.functions.noise.dropout import dropout
from minichainer.functions.pooling.max_pooling_2d import max_pooling_2d
from minichainer.initializers import constant
from minichainer.initializers import normal
from minichainer.links.connection.convolution_2d import Convolution2D
from minichainer.links.connection.linear import Linear
from minichainer.links.model import vision as _vision

_MEAN_BGR = (103.939, 116.779, 123.68)

# (block, number of 3x3 convolutions in VGG16, output channels); VGG19 adds a fourth
# convolution to blocks 3, 4 and 5.
_BLOCKS = ((1, 2, 64), (2, 2, 128), (3, 3, 256), (4, 3, 512), (5, 3, 512))

__getattr__ = _vision.module_getattr(__name__)


class VGGLayers(_vision.VisionModel):
    """VGG network (base of [`VGG16Layers`][minichainer.links.model.vision.vgg.VGG16Layers] and
    [`VGG19Layers`][minichainer.links.model.vision.vgg.VGG19Layers]).

    Thirteen (or sixteen) 3x3 convolutions `conv1_1` ... `conv5_3` (`conv5_4`)
    in five blocks each followed by 2x2 max pooling, then `fc6` (25088 -> 4096),
    `fc7` (4096 -> 4096) with ReLU and dropout, `fc8` (4096 -> 1000) and softmax.
    `fc6` needs 224x224 inputs; the convolutional layers accept any size.

    Args:
        pretrained_model (str or None): `'auto'` loads the converted VGG model
            `VGG_ILSVRC_{16,19}_layers.npz` from
            `<dataset root>/pfnet/chainer/models/` (minichainer cannot download and
            convert the Caffe model itself; Chainer's cached file is used); a path loads
            that `.npz` file; None draws the weights from `Normal(0.01)` with zero
            biases, as in the paper (otherwise they start at zero before loading).
        n_layers (int): 16 or 19.

    Attributes:
        available_layers (list of str): Layer names accepted by `forward`/`extract`.
    """

    _mean_bgr = _MEAN_BGR
    _extract_default = 'fc7'

    def __init__(self, pretrained_model='auto', n_layers=16):
        super().__init__()
        if n_layers not in (16, 19):
            raise ValueError('VGGLayers: n_layers must be 16 or 19, got {!r}'.format(
                n_layers))
        if pretrained_model == 'auto':
            path = _vision.pretrained_path(
                type(self).__name__, pretrained_model,
                'VGG_ILSVRC_{}_layers.npz'.format(n_layers),
                'chainer.links.VGG{}Layers() downloads the caffemodel and writes it'
                .format(n_layers))
        else:
            path = _vision.pretrained_path(type(self).__name__, pretrained_model)
        if pretrained_model:
            # the weights are overwritten by the loaded ones: skip the random draws
            zero = constant.Zero()
            kwargs = {'initialW': zero, 'initial_bias': zero}
        else:
            kwargs = {'initialW': normal.Normal(0.01), 'initial_bias': constant.Zero()}
        # The VGG16 layers are created (and drawn) in order, then VGG19's extra ones.
        with self.init_scope():
            in_channels = 3
            for block, n_conv, channels in _BLOCKS:
                for i in range(1, n_conv + 1):
                    setattr(self, 'conv{}_{}'.format(block, i),
                            Convolution2D(in_channels, channels, 3, 1, 1, **kwargs))
                    in_channels = channels
            self.fc6 = Linear(512 * 7 * 7, 4096, **kwargs)
            self.fc7 = Linear(4096, 4096, **kwargs)
            self.fc8 = Linear(4096, 1000, **kwargs)
            if n_layers == 19:
                self.conv3_4 = Convolution2D(256, 256, 3, 1, 1, **kwargs)
                self.conv4_4 = Convolution2D(512, 512, 3, 1, 1, **kwargs)
                self.conv5_4 = Convolution2D(512, 512, 3, 1, 1, **kwargs)
        self._n_layers = n_layers
        _vision.load_pretrained(self, path)

    @property
    def functions(self):
        """Ordered dict: layer name -> callables applied in turn."""
        deeper = self._n_layers == 19
        table = []
        for block, n_conv, _ in _BLOCKS:
            if deeper and block >= 3:
                n_conv += 1
            for i in range(1, n_conv + 1):
                name = 'conv{}_{}'.format(block, i)
                table.append((name, [getattr(self, name), relu]))
            table.append(('pool{}'.format(block), [_max_pooling_2d]))
        table += [
            ('fc6', [self.fc6, relu, dropout]),
            ('fc7', [self.fc7, relu, dropout]),
            ('fc8', [self.fc8]),
            ('prob', [softmax]),
        ]
        return collections.OrderedDict(table)


class VGG16Layers(VGGLayers):
    """VGG with 16 weight layers (see `VGGLayers`; 22 available layers).

    Args:
        pretrained_model (str or None): `'auto'` (`VGG_ILSVRC_16_layers.npz` in the
            dataset cache), the path of an `.npz` file, or None for random weights.
    """

    def __init__(self, pretrained_model='auto'):
        super().__init__(pretrained_model, 16)


class VGG19Layers(VGGLayers):
    """VGG with 19 weight layers (see `VGGLayers`; 25 available layers).

    Args:
        pretrained_model (str or None): `'auto'` (`VGG_ILSVRC_19_layers.npz` in the
            dataset cache), the path of an `.npz` file, or None for random weights.
    """

    def __init__(self, pretrained_model='auto'):
        super().__init__(pretrained_model, 19)


def prepare(image, size=(224, 224)):
    """Turn an RGB image into VGG input, a `(3, H, W)` BGR array less the mean pixel
    (103.939, 116.779, 123.68): see [`prepare_image`][minichainer.links.model.vision.prepare_image]
    for `image` and `size` (PIL's `(width, height)`). ImportError without Pillow."""
    return _vision.prepare_image(image, size, _MEAN_BGR, 'vgg.prepare')


def _max_pooling_2d(x):
    return max_pooling_2d(x, ksize=2)
