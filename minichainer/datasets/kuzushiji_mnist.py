"""The Kuzushiji-MNIST dataset (`chainer.datasets.get_kuzushiji_mnist`)."""
import numpy

from minichainer.datasets import _mnist_helper

_BASE_URLS = ['http://codh.rois.ac.jp/kmnist/dataset/kmnist/']
_FILES = {
    'train.npz': (('train-images-idx3-ubyte.gz', 'train-labels-idx1-ubyte.gz'),
                  ('bdb82020997e1d708af4cf47b453dcf7', 'e144d726b3acfaa3e44228e80efcd344')),
    'test.npz': (('t10k-images-idx3-ubyte.gz', 't10k-labels-idx1-ubyte.gz'),
                 ('5c965bf0a639b31b8f53240b1b52f4d7', '7320c461ea6c1c855c0b718fb2a4b134')),
}

_kuzushiji_mnist_labels = [('o', '\u304A'), ('ki', '\u304D'), ('su', '\u3059'),
                           ('tsu', '\u3064'), ('na', '\u306A'), ('ha', '\u306F'),
                           ('ma', '\u307E'), ('ya', '\u3084'), ('re', '\u308C'),
                           ('wo', '\u3092')]


def get_kuzushiji_mnist_labels():
    """Return the 10 labels as `(romaji, character)` tuples, in label order."""
    return list(_kuzushiji_mnist_labels)


def _retrieve(name):
    files, md5s = _FILES[name]
    return _mnist_helper.retrieve('pfnet/chainer/kuzushiji_mnist', name, _BASE_URLS,
                                  files, md5s, 'get_kuzushiji_mnist')


def get_kuzushiji_mnist(withlabel=True, ndim=1, scale=1., dtype=None,
                        label_dtype=numpy.int32, rgb_format=False):
    """Get the Kuzushiji-MNIST dataset (28x28 grey images of cursive Japanese).

    Arguments and return value are as for [`get_mnist`][minichainer.datasets.mnist.get_mnist];
    cached under `<dataset root>/pfnet/chainer/kuzushiji_mnist`.
    """
    train = _mnist_helper.preprocess_mnist(_retrieve('train.npz'), withlabel, ndim, scale,
                                           dtype, label_dtype, rgb_format)
    test = _mnist_helper.preprocess_mnist(_retrieve('test.npz'), withlabel, ndim, scale,
                                          dtype, label_dtype, rgb_format)
    return train, test
