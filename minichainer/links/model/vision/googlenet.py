"""GoogLeNet (Inception-v1) with its two auxiliary classifiers
(`chainer.links.model.vision.googlenet`).

The pre-trained weights are BVLC's Caffe model
(https://github.com/BVLC/caffe/tree/master/models/bvlc_googlenet) converted to
`.npz`.
"""
import collections

from minichainer.functions.activation.relu import relu
from minichainer.functions.activation.softmax import softmax
from minichainer.functions.math.average import average
from minichainer.functions.noise.dropout import dropout
from minichainer.functions.normalization.local_response_normalization import \
    local_response_normalization
from minichainer.functions.pooling.average_pooling_2d import average_pooling_2d
from minichainer.functions.pooling.max_pooling_2d import max_pooling_2d
from minichainer.initializers import constant
from minichainer.initializers import uniform
from minichainer.links.connection.convolution_2d import Convolution2D
from minichainer.links.connection.inception import Inception
from minichainer.links.connection.linear import Linear
from minichainer.links.model import vision as _vision

_MEAN_BGR = (104.0, 117.0, 123.0)

# Inception modules: attribute suffix and (in, out1, proj3, out3, proj5, out5, pool).
_INCEPTIONS = (
    ('3a', (192, 64, 96, 128, 16, 32, 32)),
    ('3b', (256, 128, 128, 192, 32, 96, 64)),
    ('4a', (480, 192, 96, 208, 16, 48, 64)),
    ('4b', (512, 160, 112, 224, 24, 64, 64)),
    ('4c', (512, 128, 128, 256, 24, 64, 64)),
    ('4d', (512, 112, 144, 288, 32, 64, 64)),
    ('4e', (528, 256, 160, 320, 32, 128, 128)),
    ('5a', (832, 256, 160, 320, 32, 128, 128)),
    ('5b', (832, 384, 192, 384, 48, 128, 128)),
)

__getattr__ = _vision.module_getattr(__name__)


class GoogLeNet(_vision.VisionModel):
    """GoogLeNet (Inception-v1) as trained by BVLC, auxiliary classifiers included.

    Stem `conv1` (7x7/2), `conv2_reduce` (1x1), `conv2` (3x3) with max pooling
    and local response normalization, Inception modules `inc3a` ... `inc5b`, 7x7
    average pooling `pool5`, dropout 0.4 and `loss3_fc` (1024 -> 1000). The
    auxiliary heads `loss1_*` (on `inception_4a`) and `loss2_*` (on
    `inception_4d`) come after `prob` in `functions` so that they only run when
    asked for. The fully-connected layers need 224x224 inputs.

    Args:
        pretrained_model (str or None): `'auto'` loads the converted BVLC model
            `bvlc_googlenet.npz` from `<dataset root>/pfnet/chainer/models/`
            (minichainer cannot download and convert the Caffe model itself; Chainer's
            cached file is used); a path loads that `.npz` file; None draws the
            stem and classifier weights from `LeCunUniform(scale=1.0)` (Caffe's
            "xavier" filler; the Inception modules use their default initializer).

    Attributes:
        available_layers (list of str): Layer names accepted by `forward`/`extract`.
    """

    _mean_bgr = _MEAN_BGR
    _extract_default = 'pool5'
    _removed_kwarg = 'train'
    _branches = {'loss1_fc2': 'inception_4a', 'loss2_fc2': 'inception_4d'}

    def __init__(self, pretrained_model='auto'):
        super().__init__()
        if pretrained_model == 'auto':
            path = _vision.pretrained_path(
                type(self).__name__, pretrained_model, 'bvlc_googlenet.npz',
                'chainer.links.GoogLeNet() downloads the caffemodel and writes it')
        else:
            path = _vision.pretrained_path(type(self).__name__, pretrained_model)
        if pretrained_model:
            # the weights are overwritten by the loaded ones: skip the random draws
            kwargs = {'initialW': constant.Zero()}
        else:
            kwargs = {'initialW': uniform.LeCunUniform(scale=1.0)}
        with self.init_scope():
            self.conv1 = Convolution2D(3, 64, 7, stride=2, pad=3, **kwargs)
            self.conv2_reduce = Convolution2D(64, 64, 1, **kwargs)
            self.conv2 = Convolution2D(64, 192, 3, stride=1, pad=1, **kwargs)
            for suffix, sizes in _INCEPTIONS:
                setattr(self, 'inc' + suffix, Inception(*sizes))
            self.loss3_fc = Linear(1024, 1000, **kwargs)
            for head, in_channels in (('loss1', 512), ('loss2', 528)):
                setattr(self, head + '_conv', Convolution2D(in_channels, 128, 1, **kwargs))
                setattr(self, head + '_fc1', Linear(2048, 1024, **kwargs))
                setattr(self, head + '_fc2', Linear(1024, 1000, **kwargs))

        _vision.load_pretrained(self, path)

    @property
    def functions(self):
        """Ordered dict: layer name -> callables applied in turn (`loss1_fc2` and
        `loss2_fc2` start again from `inception_4a` and `inception_4d`)."""
        table = [
            ('conv1', [self.conv1, relu]),
            ('pool1', [_max_pooling_2d, _local_response_normalization]),
            ('conv2_reduce', [self.conv2_reduce, relu]),
            ('conv2', [self.conv2, relu, _local_response_normalization]),
            ('pool2', [_max_pooling_2d]),
        ]
        for suffix, _ in _INCEPTIONS:
            table.append(('inception_' + suffix, [getattr(self, 'inc' + suffix)]))
            if suffix in ('3b', '4e'):
                table.append(('pool{}'.format(int(suffix[0])), [_max_pooling_2d]))
        table += [
            ('pool5', [_average_pooling_2d_k7]),
            ('loss3_fc', [_dropout, self.loss3_fc]),
            ('prob', [softmax]),
            ('loss1_fc2', [_average_pooling_2d_k5, self.loss1_conv, relu,
                           self.loss1_fc1, relu, self.loss1_fc2]),
            ('loss2_fc2', [_average_pooling_2d_k5, self.loss2_conv, relu,
                           self.loss2_fc1, relu, self.loss2_fc2]),
        ]
        return collections.OrderedDict(table)

    def _average_crops(self, y):
        return average(y, axis=1)


def prepare(image, size=(224, 224)):
    """Turn an RGB image into GoogLeNet input, a `(3, H, W)` BGR array less the mean pixel
    (104, 117, 123): see [`prepare_image`][minichainer.links.model.vision.prepare_image]
    for `image` and `size` (PIL's `(width, height)`). ImportError without Pillow."""
    return _vision.prepare_image(image, size, _MEAN_BGR, 'googlenet.prepare')


def _max_pooling_2d(x):
    return max_pooling_2d(x, ksize=3, stride=2)


def _local_response_normalization(x):
    return local_response_normalization(x, n=5, k=1, alpha=1e-4 / 5)


def _average_pooling_2d_k5(x):
    return average_pooling_2d(x, ksize=5, stride=3)


def _average_pooling_2d_k7(x):
    return average_pooling_2d(x, ksize=7, stride=1)


def _dropout(x):
    return dropout(x, ratio=0.4)
