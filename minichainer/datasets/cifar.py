"""The CIFAR-10 and CIFAR-100 datasets (`chainer.datasets.get_cifar10/100`)."""
import os
import pickle
import tarfile
import zlib

import numpy

import minichainer
from minichainer.dataset import download
from minichainer.datasets import _cache
from minichainer.datasets import tuple_dataset

_BASE_URL = 'https://www.cs.toronto.edu/~kriz/'
_MD5 = {'cifar-10': 'c58f30108f718f92721af3b95e74349a',
        'cifar-100': 'eb9058c3a382ffc7106e4002c42a8d85'}


def get_cifar10(withlabel=True, ndim=3, scale=1., dtype=None):
    """Get the CIFAR-10 dataset (50000 training and 10000 test 32x32 RGB images).

    Args:
        withlabel (bool): Return `(image, label)` TupleDatasets (True) or images.
        ndim (int): 1 → `(3072,)`, 3 → `(3, 32, 32)`.
        scale (float): Pixels are scaled to `[0, scale]`.
        dtype: Image dtype (default `minichainer.config.dtype`); labels are int32.

    Returns:
        `(train, test)`; cached as `<dataset root>/pfnet/chainer/cifar/cifar-10.npz`.
    """
    return _get_cifar('cifar-10', withlabel, ndim, scale, dtype)


def get_cifar100(withlabel=True, ndim=3, scale=1., dtype=None):
    """Get the CIFAR-100 dataset (fine labels); arguments as
    [`get_cifar10`][minichainer.datasets.cifar.get_cifar10]."""
    return _get_cifar('cifar-100', withlabel, ndim, scale, dtype)


def _pickle_load(f):
    # The archives hold Python pickles (verified by MD5 before use).
    return pickle.load(f, encoding='latin-1')


def _get_cifar(name, withlabel, ndim, scale, dtype):
    what = 'get_cifar10' if name == 'cifar-10' else 'get_cifar100'
    root = download.get_dataset_directory(os.path.join('pfnet', 'chainer', 'cifar'))
    npz_path = os.path.join(root, '{}.npz'.format(name))
    url = '{}{}-python.tar.gz'.format(_BASE_URL, name)

    def creator(path):
        url_used, archive_path = _cache.download_any(what, [url], _MD5.get(name))
        try:
            with tarfile.open(archive_path, 'r:gz') as archive:
                if name == 'cifar-10':
                    xs, ys = [], []
                    for i in range(5):
                        d = _pickle_load(archive.extractfile(
                            'cifar-10-batches-py/data_batch_{}'.format(i + 1)))
                        xs.append(numpy.asarray(d['data'], dtype=numpy.uint8))
                        ys.append(numpy.asarray(d['labels'], dtype=numpy.uint8))
                    train_x = numpy.concatenate(xs).reshape(-1, 3072)
                    train_y = numpy.concatenate(ys)
                    d = _pickle_load(archive.extractfile('cifar-10-batches-py/test_batch'))
                    test_x = numpy.asarray(d['data'], dtype=numpy.uint8).reshape(-1, 3072)
                    test_y = numpy.asarray(d['labels'], dtype=numpy.uint8)
                else:
                    def load(member):
                        d = _pickle_load(archive.extractfile(member))
                        x = numpy.asarray(d['data'], dtype=numpy.uint8).reshape((-1, 3072))
                        y = numpy.array(d['fine_labels'], dtype=numpy.uint8)
                        return x, y
                    train_x, train_y = load('cifar-100-python/train')
                    test_x, test_y = load('cifar-100-python/test')
        except (OSError, EOFError, zlib.error, tarfile.TarError, KeyError, ValueError,
                pickle.UnpicklingError) as e:
            raise _cache.corrupt(what, archive_path, url_used, e) from e
        numpy.savez_compressed(path, train_x=train_x, train_y=train_y,
                               test_x=test_x, test_y=test_y)
        return {'train_x': train_x, 'train_y': train_y, 'test_x': test_x, 'test_y': test_y}

    raw = _cache.retrieve_npz(npz_path, creator)
    train = _preprocess_cifar(raw['train_x'], raw['train_y'], withlabel, ndim, scale, dtype)
    test = _preprocess_cifar(raw['test_x'], raw['test_y'], withlabel, ndim, scale, dtype)
    return train, test


def _preprocess_cifar(images, labels, withlabel, ndim, scale, dtype):
    if ndim == 1:
        images = images.reshape(-1, 3072)
    elif ndim == 3:
        images = images.reshape(-1, 3, 32, 32)
    else:
        raise ValueError('invalid ndim for CIFAR dataset: expected 1 or 3, got '
                         '{!r}'.format(ndim))
    images = images.astype(minichainer.get_dtype(dtype))
    images *= scale / 255.
    if withlabel:
        return tuple_dataset.TupleDataset(images, labels.astype(numpy.int32))
    return images
