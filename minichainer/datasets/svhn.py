"""The Street View House Numbers dataset (`chainer.datasets.get_svhn`).

Converting the downloaded MATLAB files needs SciPy (installed with
`pip install minichainer[examples]` through scikit-learn, or `pip install scipy`).
"""
import os

import numpy

import minichainer
from minichainer.dataset import download
from minichainer.datasets import _cache
from minichainer.datasets import tuple_dataset

_BASE_URLS = ['http://ufldl.stanford.edu/housenumbers/']
_FILES = {'train.npz': ('train_32x32.mat', 'e26dedcc434d2e4c54c9b2d4a06d8373'),
          'test.npz': ('test_32x32.mat', 'eb5a983be6a315427106f1b164d9cef3'),
          'extra.npz': ('extra_32x32.mat', 'a93ce644f1a588dc4d68dda5feec44a7')}


def get_svhn(withlabel=True, scale=1., dtype=None, label_dtype=numpy.int32,
             add_extra=False):
    """Get the SVHN dataset (32x32 RGB digit images, label 0-9 with "0" as 0).

    Args:
        withlabel (bool): Return `(image, label)` TupleDatasets (True) or images.
        scale (float): Pixels are scaled to `[0, scale]`.
        dtype: Image dtype (default `minichainer.config.dtype`).
        label_dtype: Label dtype.
        add_extra (bool): Also return the extra training set.

    Returns:
        `(train, test)`, or `(train, test, extra)` with `add_extra`; images
        have shape `(3, 32, 32)`. Cached under `<dataset root>/pfnet/chainer/svhn`.
    """
    names = ('train.npz', 'test.npz', 'extra.npz') if add_extra else ('train.npz', 'test.npz')
    return tuple(_preprocess_svhn(_retrieve(name), withlabel, scale, dtype, label_dtype)
                 for name in names)


def _preprocess_svhn(raw, withlabel, scale, image_dtype, label_dtype):
    images = raw['x'].transpose(3, 2, 0, 1)
    images = images.astype(minichainer.get_dtype(image_dtype))
    images *= scale / 255.
    labels = raw['y'].astype(label_dtype).flatten()
    labels[labels == 10] = 0  # the digit 0 is stored as label 10
    if withlabel:
        return tuple_dataset.TupleDataset(images, labels)
    return images


def _retrieve(name):
    file_name, md5 = _FILES[name]
    root = download.get_dataset_directory('pfnet/chainer/svhn')
    path = os.path.join(root, name)
    urls = [base + file_name for base in _BASE_URLS]
    return _cache.retrieve_npz(path, lambda p: _make_npz(p, urls, md5))


def _make_npz(path, urls, md5):
    try:
        from scipy import io
    except ImportError as e:
        raise ImportError(
            'get_svhn needs SciPy to read the .mat files; install it with '
            '`pip install minichainer[examples]` or `pip install scipy`') from e
    url, mat_path = _cache.download_any('get_svhn', urls, md5)
    try:
        raw = io.loadmat(mat_path)
        images = raw['X'].astype(numpy.uint8)
        labels = raw['y'].astype(numpy.uint8)
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise _cache.corrupt('get_svhn', mat_path, url, e) from e
    numpy.savez_compressed(path, x=images, y=labels)
    return {'x': images, 'y': labels}
