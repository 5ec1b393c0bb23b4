"""Subsets and splits of datasets (`chainer.datasets.SubDataset` and split functions)."""
import numbers
import warnings

import numpy

from minichainer.dataset import dataset_mixin
from minichainer.dataset.example_batch import ExampleBatch


class SubDataset(dataset_mixin.DatasetMixin):
    """Subset `[start, finish)` of a base dataset, optionally through a permutation.

    The `i`-th example is `dataset[order[start + i]]` (`dataset[start + i]`
    without `order`); a negative `i` counts from `finish`.

    Args:
        dataset: Base dataset.
        start (int): First index of the interval.
        finish (int): One past the last index of the interval.
        order (sequence of ints): Permutation of the base dataset's indices, or None.

    Raises:
        ValueError: The interval overruns the base dataset or `order` has the
            wrong length.
    """

    def __init__(self, dataset, start, finish, order=None):
        if start < 0 or finish > len(dataset):
            raise ValueError(
                'SubDataset: the interval [{}, {}) overruns the base dataset of length '
                '{}'.format(start, finish, len(dataset)))
        if order is not None and len(order) != len(dataset):
            raise ValueError(
                'SubDataset: order must have the same length as the base dataset: '
                'len(order) = {} while len(dataset) = {}'.format(len(order), len(dataset)))
        self._dataset = dataset
        self._start = start
        self._finish = finish
        self._size = finish - start
        self._order = order
        self._order_array = None

    def __len__(self):
        return self._size

    def get_example(self, i):
        if i >= 0:
            if i >= self._size:
                raise IndexError('SubDataset: index {} out of range for length {}'.format(
                    i, self._size))
            index = self._start + i
        else:
            if i < -self._size:
                raise IndexError('SubDataset: index {} out of range for length {}'.format(
                    i, self._size))
            index = self._finish + i
        if self._order is not None:
            index = self._order[index]
        return self._dataset[index]

    def get_example_batch(self, indices):
        """The batch protocol: the examples at `indices` as an ExampleBatch gathered
        from the base dataset in one call, or None when the base cannot do that."""
        base = self._dataset
        if type(base) is numpy.ndarray:
            get = None
        else:
            get = getattr(base, 'get_example_batch', None)
            if get is None:
                return None
        indices = numpy.asarray(indices)
        size = self._size
        if len(indices) and (indices.max() >= size or indices.min() < -size):
            raise IndexError('SubDataset: index out of range for length {}'.format(size))
        positions = numpy.where(indices < 0, indices + self._finish, indices + self._start)
        if self._order is not None:
            order = self._order_array
            if order is None:
                order = self._order_array = numpy.asarray(self._order)
            positions = order[positions]
        if get is None:
            return ExampleBatch(base[positions])
        return get(positions)


def _check_int(name, argname, value):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError('{}: {} must be an int, got {!r}'.format(name, argname, value))


def split_dataset(dataset, split_at, order=None):
    """Split a dataset into two [`SubDataset`][minichainer.datasets.sub_dataset.SubDataset] at
    `split_at`.

    Returns:
        tuple: `(first, second)` with the examples of `order[:split_at]` and
        `order[split_at:]`.

    Raises:
        ValueError: `split_at` is negative or larger than the dataset size.
    """
    _check_int('split_dataset', 'split_at', split_at)
    n_examples = len(dataset)
    if split_at < 0:
        raise ValueError('split_dataset: split_at must be non-negative, got {}'.format(
            split_at))
    if split_at > n_examples:
        raise ValueError('split_dataset: split_at ({}) exceeds the dataset size ({})'.format(
            split_at, n_examples))
    return (SubDataset(dataset, 0, split_at, order),
            SubDataset(dataset, split_at, n_examples, order))


def split_dataset_random(dataset, first_size, seed=None):
    """Split a dataset randomly into subsets of `first_size` and the rest.

    The permutation comes from `numpy.random.RandomState(seed)` (the global
    generator is not touched), so a fixed `seed` always gives the same split.
    """
    order = numpy.random.RandomState(seed).permutation(len(dataset))
    return split_dataset(dataset, first_size, order)


def split_dataset_n(dataset, n, order=None):
    """Split a dataset into `n` subsets of `len(dataset) // n` examples each."""
    _check_int('split_dataset_n', 'n', n)
    if n <= 0:
        raise ValueError('split_dataset_n: n must be positive, got {}'.format(n))
    sub_size = len(dataset) // n
    return [SubDataset(dataset, sub_size * i, sub_size * (i + 1), order)
            for i in range(n)]


def split_dataset_n_random(dataset, n, seed=None):
    """Split a dataset randomly into `n` subsets of `len(dataset) // n` examples."""
    _check_int('split_dataset_n_random', 'n', n)
    if n <= 0:
        raise ValueError('split_dataset_n_random: n must be positive, got {}'.format(n))
    sub_size = len(dataset) // n
    order = numpy.random.RandomState(seed).permutation(len(dataset))
    return [SubDataset(dataset, sub_size * i, sub_size * (i + 1), order)
            for i in range(n)]


def get_cross_validation_datasets(dataset, n_folds=None, order=None, **kwargs):
    """Make `n_folds` (train, test) splits for cross validation.

    The test parts do not overlap and together cover the dataset; their sizes
    differ by at most one. `n_fold=` (Chainer's old name) is accepted with a
    DeprecationWarning.

    Returns:
        list of tuples: `[(train, test), ...]`, each a pair of SubDatasets.
    """
    n_folds = _n_folds_argument('get_cross_validation_datasets', n_folds, kwargs)
    if order is None:
        order = numpy.arange(len(dataset))
    else:
        order = numpy.array(order)  # copy

    whole_size = len(dataset)
    borders = [whole_size * i // n_folds for i in range(n_folds + 1)]
    test_sizes = [borders[i + 1] - borders[i] for i in range(n_folds)]

    splits = []
    for test_size in reversed(test_sizes):
        size = whole_size - test_size
        splits.append(split_dataset(dataset, size, order))
        new_order = numpy.empty_like(order)
        new_order[:test_size] = order[-test_size:]
        new_order[test_size:] = order[:-test_size]
        order = new_order
    return splits


def get_cross_validation_datasets_random(dataset, n_folds=None, seed=None, **kwargs):
    """Like [`get_cross_validation_datasets`][minichainer.datasets.sub_dataset.get_cross_validation_datasets]
    with a random order from `seed`."""
    n_folds = _n_folds_argument('get_cross_validation_datasets_random', n_folds, kwargs)
    order = numpy.random.RandomState(seed).permutation(len(dataset))
    return get_cross_validation_datasets(dataset, n_folds, order)


def _n_folds_argument(func, n_folds, kwargs):
    if 'n_fold' in kwargs:
        warnings.warn('{}: argument `n_fold` is deprecated; use `n_folds` '
                      'instead'.format(func), DeprecationWarning, stacklevel=3)
        n_folds = kwargs.pop('n_fold')
    if kwargs:
        raise TypeError('{}() got an unexpected keyword argument {!r}'.format(
            func, next(iter(kwargs))))
    if n_folds is None:
        raise TypeError('{}() missing required argument: n_folds'.format(func))
    _check_int(func, 'n_folds', n_folds)
    if n_folds <= 0:
        raise ValueError('{}: n_folds must be positive, got {}'.format(func, n_folds))
    return n_folds
