"""`TabularDataset.slice`: views on a subset of rows and/or columns."""
import numbers

import numpy

from minichainer.dataset.tabular import tabular_dataset


class _Slice(tabular_dataset.TabularDataset):

    def __init__(self, dataset, indices, keys):
        # a single key (not a tuple) makes a one-column view whose mode is None
        if keys is None:
            self._unary = None
        elif isinstance(keys, tuple):
            self._unary = False
        else:
            self._unary = True
            keys = (keys,)
        self._dataset = dataset
        self._indices = _normalize_indices(indices, len(dataset))
        self._key_indices = _normalize_keys(keys, dataset.keys)

    def __len__(self):
        indices = self._indices
        if indices is None:
            return len(self._dataset)
        if isinstance(indices, slice):
            return len(range(*indices.indices(len(self._dataset))))
        return len(indices)

    @property
    def keys(self):
        base_keys = self._dataset.keys
        if self._key_indices is None:
            return base_keys
        return tuple(base_keys[k] for k in self._key_indices)

    @property
    def mode(self):
        if self._unary is None:
            return self._dataset.mode
        if self._unary:
            return None
        return self._dataset.mode or tuple

    def get_examples(self, indices, key_indices):
        return self._dataset.get_examples(
            _compose_indices(self._indices, indices, len(self._dataset), len(self)),
            _compose_key_indices(self._key_indices, key_indices))

    def convert(self, data):
        return self._dataset.convert(data)


class _SliceHelper:

    def __init__(self, dataset):
        self._dataset = dataset

    def __getitem__(self, args):
        if isinstance(args, tuple):
            if len(args) != 2:
                raise ValueError(
                    'TabularDataset.slice: expected [indices] or [indices, keys], got '
                    '{} subscripts'.format(len(args)))
            indices, keys = args
        else:
            indices, keys = args, None
        return _Slice(self._dataset, indices, keys)


def _normalize_indices(indices, length):
    """A slice stays a slice; ints/bools become a list of non-negative ints."""
    if isinstance(indices, slice):
        return indices
    try:
        n = len(indices)
    except TypeError:
        raise TypeError('TabularDataset.slice: indices must be a slice or a sequence of '
                        'ints or bools, got {}'.format(type(indices).__name__)) from None
    if n == 0:
        return indices
    if all(isinstance(i, (bool, numpy.bool_)) for i in indices):
        if n != length:
            raise ValueError('TabularDataset.slice: a boolean mask must have one entry per '
                             'row: got {} for a dataset of length {}'.format(n, length))
        return [i for i, keep in enumerate(indices) if keep]
    normalized = []
    for index in indices:
        index = int(index)
        if index < 0:
            index += length
        if not 0 <= index < length:
            raise IndexError('TabularDataset.slice: index {} is out of bounds for a dataset '
                             'of length {}'.format(index, length))
        normalized.append(index)
    return normalized


def _normalize_keys(keys, key_names):
    """Keys (column positions or names) as a tuple of non-negative positions."""
    if keys is None:
        return None
    n_keys = len(key_names)
    key_indices = []
    for key in keys:
        if isinstance(key, numbers.Integral):
            index = key + n_keys if key < 0 else key
            if not 0 <= index < n_keys:
                raise IndexError('TabularDataset.slice: key index {} is out of bounds for '
                                 '{} keys'.format(key, n_keys))
        else:
            try:
                index = key_names.index(key)
            except ValueError:
                raise KeyError('TabularDataset.slice: key {!r} does not exist (keys: '
                               '{})'.format(key, key_names)) from None
        key_indices.append(index)
    return tuple(key_indices)


def _compose_indices(outer, inner, outer_len, inner_len):
    """Rows of the base dataset selected by `inner` applied on top of `outer`."""
    if inner is None:
        return outer
    if outer is None:
        return inner
    if isinstance(outer, slice):
        start, stop, step = outer.indices(outer_len)
        if isinstance(inner, slice):
            in_start, in_stop, in_step = inner.indices(inner_len)
            new_start = start + step * in_start
            new_stop = start + step * in_stop
            new_step = step * in_step
            # a negative bound would wrap around: use the open end instead
            if new_start < 0 and new_step > 0:
                new_start = None
            if new_stop < 0 and new_step < 0:
                new_stop = None
            return slice(new_start, new_stop, new_step)
        return [start + step * i for i in inner]
    if isinstance(inner, slice):
        return outer[inner]
    return [outer[i] for i in inner]


def _compose_key_indices(outer, inner):
    if inner is None:
        return outer
    if outer is None:
        return inner
    return tuple(outer[k] for k in inner)
