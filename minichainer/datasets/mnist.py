"""The MNIST handwritten digits (`chainer.datasets.get_mnist`)."""
import numpy

from minichainer.datasets import _mnist_helper

# Chainer's source first, then a mirror; the files are verified by MD5.
_BASE_URLS = ['http://yann.lecun.com/exdb/mnist/',
              'https://ossci-datasets.s3.amazonaws.com/mnist/']
_FILES = {
    'train.npz': (('train-images-idx3-ubyte.gz', 'train-labels-idx1-ubyte.gz'),
                  ('f68b3c2dcbeaaa9fbdd348bbdeb94873', 'd53e105ee54ea40749a09fcbcd1e9432')),
    'test.npz': (('t10k-images-idx3-ubyte.gz', 't10k-labels-idx1-ubyte.gz'),
                 ('9fb629c4189551a2d022fa330f9573f3', 'ec29112dd5afa0611ce80d1b7f02629c')),
}


def _retrieve_mnist(name):
    files, md5s = _FILES[name]
    return _mnist_helper.retrieve('pfnet/chainer/mnist', name, _BASE_URLS, files, md5s,
                                  'get_mnist')


def get_mnist(withlabel=True, ndim=1, scale=1., dtype=None, label_dtype=numpy.int32,
              rgb_format=False):
    """Get the MNIST dataset (60000 training and 10000 test 28x28 grey images).

    Downloaded once and cached as `<dataset root>/pfnet/chainer/mnist/{train,test}.npz`.

    Args:
        withlabel (bool): Return `(image, label)` TupleDatasets (True) or image arrays.
        ndim (int): 1 → `(784,)`, 2 → `(28, 28)`, 3 → `(1, 28, 28)`.
        scale (float): Pixels are scaled to `[0, scale]`.
        dtype: Image dtype (default `minichainer.config.dtype`).
        label_dtype: Label dtype.
        rgb_format (bool): With `ndim=3`, repeat the channel to `(3, 28, 28)`.

    Returns:
        `(train, test)`.
    """
    train = _mnist_helper.preprocess_mnist(_retrieve_mnist('train.npz'), withlabel, ndim,
                                           scale, dtype, label_dtype, rgb_format)
    test = _mnist_helper.preprocess_mnist(_retrieve_mnist('test.npz'), withlabel, ndim,
                                          scale, dtype, label_dtype, rgb_format)
    return train, test
