"""The 8x8 handwritten digits bundled with scikit-learn (minichainer addition).

It gives examples and tests real data without a download. Needs scikit-learn
(`pip install minichainer[examples]`).
"""
import functools

import numpy

import minichainer
from minichainer.datasets import tuple_dataset


@functools.lru_cache(maxsize=None)
def _load_raw(load_digits):
    # scikit-learn's digits as (uint8 images, labels), loaded once per process.
    digits = load_digits()
    return numpy.asarray(digits.data, dtype=numpy.uint8), numpy.asarray(digits.target)


def get_digits(withlabel=True, ndim=1, scale=1., dtype=None, label_dtype=numpy.int32,
               rgb_format=False, test_size=360, seed=0):
    """Get the 1797 8x8 digit images of scikit-learn, split like
    [`get_mnist`][minichainer.datasets.mnist.get_mnist].

    The split is a fixed permutation from `numpy.random.RandomState(seed)` (the
    global generator is not touched): `test_size` examples for test, the rest for
    training.

    Args:
        withlabel (bool): Return `(image, label)` TupleDatasets (True) or images.
        ndim (int): 1 → `(64,)`, 2 → `(8, 8)`, 3 → `(1, 8, 8)`.
        scale (float): Pixels (originally 0-16) are scaled to `[0, scale]`.
        dtype: Image dtype (default `minichainer.config.dtype`).
        label_dtype: Label dtype.
        rgb_format (bool): With `ndim=3`, repeat the channel to `(3, 8, 8)`.
        test_size (int): Number of test examples.
        seed (int): Seed of the split.

    Returns:
        `(train, test)`.

    Raises:
        ImportError: scikit-learn is not installed.
    """
    try:
        from sklearn.datasets import load_digits
    except ImportError as e:
        raise ImportError(
            'get_digits needs scikit-learn, which is not installed; install it with '
            '`pip install minichainer[examples]`') from e
    if ndim not in (1, 2, 3):
        raise ValueError('get_digits: ndim must be 1, 2 or 3, got {!r}'.format(ndim))
    x, y = _load_raw(load_digits)
    n = len(x)
    if not 0 < test_size < n:
        raise ValueError('get_digits: test_size must be in (0, {}), got {!r}'.format(
            n, test_size))
    order = numpy.random.RandomState(seed).permutation(n)
    train_idx, test_idx = order[test_size:], order[:test_size]
    return (_preprocess(x[train_idx], y[train_idx], withlabel, ndim, scale, dtype,
                        label_dtype, rgb_format),
            _preprocess(x[test_idx], y[test_idx], withlabel, ndim, scale, dtype,
                        label_dtype, rgb_format))


def _preprocess(images, labels, withlabel, ndim, scale, dtype, label_dtype, rgb_format):
    if ndim == 2:
        images = images.reshape(-1, 8, 8)
    elif ndim == 3:
        images = images.reshape(-1, 1, 8, 8)
        if rgb_format:
            images = numpy.broadcast_to(images, (len(images), 3, 8, 8))
    images = images.astype(minichainer.get_dtype(dtype))
    images *= scale / 16.
    if withlabel:
        return tuple_dataset.TupleDataset(images, labels.astype(label_dtype))
    return images
