"""The Fashion-MNIST dataset (`chainer.datasets.get_fashion_mnist`)."""
import numpy

from minichainer.datasets import _mnist_helper

_BASE_URLS = ['http://fashion-mnist.s3-website.eu-central-1.amazonaws.com/']
_FILES = {
    'train.npz': (('train-images-idx3-ubyte.gz', 'train-labels-idx1-ubyte.gz'),
                  ('8d4fb7e6c68d591d4c3dfef9ec88bf0d', '25c81989df183df01b3e8a0aad5dffbe')),
    'test.npz': (('t10k-images-idx3-ubyte.gz', 't10k-labels-idx1-ubyte.gz'),
                 ('bef4ecab320f06d8554ea6380940ec79', 'bb300cfdad3c16e7a12a480ee83cd310')),
}

_fashion_mnist_labels = ['T-shirt/top', 'Trouser', 'Pullover', 'Dress', 'Coat',
                         'Sandal', 'Shirt', 'Sneaker', 'Bag', 'Ankle boot']


def get_fashion_mnist_labels():
    """Return the list of the 10 Fashion-MNIST class names, in label order."""
    return list(_fashion_mnist_labels)


def _retrieve(name):
    files, md5s = _FILES[name]
    return _mnist_helper.retrieve('pfnet/chainer/fashion-mnist', name, _BASE_URLS, files,
                                  md5s, 'get_fashion_mnist')


def get_fashion_mnist(withlabel=True, ndim=1, scale=1., dtype=None,
                      label_dtype=numpy.int32, rgb_format=False):
    """Get the Fashion-MNIST dataset (28x28 grey images of clothes, 10 classes).

    Arguments and return value are as for [`get_mnist`][minichainer.datasets.mnist.get_mnist];
    cached under `<dataset root>/pfnet/chainer/fashion-mnist`.
    """
    train = _mnist_helper.preprocess_mnist(_retrieve('train.npz'), withlabel, ndim, scale,
                                           dtype, label_dtype, rgb_format)
    test = _mnist_helper.preprocess_mnist(_retrieve('test.npz'), withlabel, ndim, scale,
                                          dtype, label_dtype, rgb_format)
    return train, test
