"""What the tests and ``make_chainer_reference.py`` (run with Chainer) share: the
forward-pass inputs and cheap, deterministic stand-ins for ``numpy.random.normal`` and
``numpy.random.uniform``.

Drawing the ~140M weights of VGG from the real generator takes many seconds. While
these stand-ins are installed, every draw is recorded (kind, parameters, shape) and
answered with a fixed pseudo-random array: a strided view of a small random buffer
seeded by the call's index. ``make_chainer_reference.py`` builds the models under the
same stand-ins in Chainer 7.8.1, so equal draw records mean the same draw order, and
then both frameworks hold the same weights and must give the same outputs.
"""
import numpy
from numpy.lib.stride_tricks import as_strided

_STRIDE_PRIMES = (1, 11, 101, 1009, 10007)


def _pattern(index, shape, low, scale):
    shape = tuple(int(s) for s in shape)
    strides = _STRIDE_PRIMES[:len(shape)][::-1]
    length = sum((n - 1) * s for n, s in zip(shape, strides)) + 1
    buf = numpy.random.Generator(numpy.random.PCG64(index)).random(length)
    buf = (buf * scale + low).astype(numpy.float32)
    return as_strided(buf, shape, tuple(s * buf.itemsize for s in strides), writeable=False)


class FastDraws:
    """Context manager replacing numpy's global normal/uniform draws (see above)."""

    def __init__(self):
        self.calls = []

    def _normal(self, loc=0.0, scale=1.0, size=None):
        self.calls.append(['normal', float(loc), float(scale), [int(s) for s in size]])
        # a uniform pattern with the normal's standard deviation is enough here
        return _pattern(len(self.calls), size, loc - scale * 3 ** 0.5, 2 * 3 ** 0.5 * scale)

    def _uniform(self, low=0.0, high=1.0, size=None):
        self.calls.append(['uniform', float(low), float(high), [int(s) for s in size]])
        return _pattern(len(self.calls), size, low, high - low)

    def __enter__(self):
        self._saved = numpy.random.normal, numpy.random.uniform
        numpy.random.normal = self._normal
        numpy.random.uniform = self._uniform
        return self

    def __exit__(self, *exc_info):
        numpy.random.normal, numpy.random.uniform = self._saved


# (input shape, layers) of the test-mode forward pass compared for each model.
FORWARD = {
    'resnet50': ((2, 3, 32, 32), ['res2', 'res5', 'pool5', 'fc6', 'prob']),
    'resnet50_fb': ((2, 3, 32, 32), ['res3', 'pool5']),
    'resnet101': ((2, 3, 32, 32), ['res4', 'pool5']),
    'resnet152': ((2, 3, 32, 32), ['res4', 'pool5']),
    'googlenet': ((1, 3, 224, 224), ['pool1', 'inception_4a', 'pool5', 'loss3_fc',
                                     'loss1_fc2', 'loss2_fc2']),
    'vgg16': ((1, 3, 224, 224), ['pool1', 'pool5', 'fc6', 'fc8', 'prob']),
    'vgg19': ((1, 3, 32, 32), ['conv3_4', 'pool5']),
}


def model_input(shape):
    return numpy.random.RandomState(1).uniform(-1, 1, shape).astype(numpy.float32)


def key_lines(model, dictionary_serializer):
    """``name:shape:dtype`` of every array save_npz writes, sorted (the serializer class
    is Chainer's or minichainer's ``DictionarySerializer``)."""
    target = {}
    dictionary_serializer(target).save(model)
    return sorted('{}:{}:{}'.format(k, 'x'.join(map(str, numpy.shape(v))),
                                    numpy.asarray(v).dtype) for k, v in target.items())
