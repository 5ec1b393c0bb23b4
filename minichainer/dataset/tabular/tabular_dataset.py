"""Minimal ``chainer.dataset.TabularDataset``: column-oriented datasets.

Only the core is provided (``fetch``, ``slice``, ``as_tuple``/``as_dict``,
``convert``/``with_converter``, per-example access); Chainer's ``concat``, ``join``
and ``transform`` operations are not implemented. Iterators treat a TabularDataset
like any other dataset (a batch is a list of examples).
"""
import numbers

import numpy

from minichainer.dataset.dataset_mixin import DatasetMixin


class TabularDataset(DatasetMixin):
    """Abstract dataset of rows with the same columns.

    Subclasses implement ``__len__``, ``keys`` (column names), ``mode`` (``tuple``
    or ``dict``: how an example is represented) and
    ``get_examples(indices, key_indices)`` returning a tuple of column lists/arrays
    (``None`` means all rows / all columns).
    """

    def __len__(self):
        raise NotImplementedError

    @property
    def keys(self):
        raise NotImplementedError

    @property
    def mode(self):
        raise NotImplementedError

    def get_examples(self, indices, key_indices):
        raise NotImplementedError

    @property
    def slice(self):
        """``dataset.slice[indices]`` or ``dataset.slice[indices, keys]`` gives a view."""
        return _SliceHelper(self)

    def fetch(self):
        """Return all the data column-major: a tuple (or dict) of lists/arrays."""
        examples = self.get_examples(None, None)
        if self.mode is tuple:
            return examples
        return dict(zip(self.keys, examples))

    def convert(self, data):
        """Convert fetched data (default: every column to an ndarray)."""
        if isinstance(data, tuple):
            return tuple(numpy.asarray(d) for d in data)
        if isinstance(data, dict):
            return {k: numpy.asarray(v) for k, v in data.items()}
        return numpy.asarray(data)

    def with_converter(self, converter):
        """Return a view whose :meth:`convert` is ``converter``."""
        return _View(self, None, None, converter=converter)

    def as_tuple(self):
        """Return a view whose mode is ``tuple``."""
        return _View(self, None, None, mode=tuple)

    def as_dict(self):
        """Return a view whose mode is ``dict``."""
        return _View(self, None, None, mode=dict)

    def concat(self, *datasets):
        raise NotImplementedError('TabularDataset.concat is not implemented in minichainer')

    def join(self, *datasets):
        raise NotImplementedError('TabularDataset.join is not implemented in minichainer')

    def get_example(self, i):
        example = tuple(col[0] for col in self.get_examples([i], None))
        if self.mode is tuple:
            return example
        return dict(zip(self.keys, example))


def _resolve_rows(indices, n):
    if indices is None:
        return None
    if isinstance(indices, slice):
        return numpy.arange(n)[indices]
    indices = numpy.asarray(indices)
    if indices.dtype == bool:
        if len(indices) != n:
            raise ValueError('TabularDataset.slice: boolean mask of length {} for {} '
                             'rows'.format(len(indices), n))
        return numpy.nonzero(indices)[0]
    indices = indices.astype(numpy.intp)
    if len(indices) and (indices.max() >= n or indices.min() < -n):
        raise IndexError('TabularDataset.slice: index out of range for {} rows'.format(n))
    return numpy.where(indices < 0, indices + n, indices)


def _resolve_keys(keys, base_keys):
    if keys is None:
        return None
    if isinstance(keys, (str, numbers.Integral)):
        keys = (keys,)
    resolved = []
    for key in keys:
        if isinstance(key, numbers.Integral):
            if not -len(base_keys) <= key < len(base_keys):
                raise IndexError('TabularDataset.slice: key index {} out of range'.format(
                    key))
            resolved.append(int(key) % len(base_keys))
        else:
            try:
                resolved.append(base_keys.index(key))
            except ValueError:
                raise KeyError('TabularDataset.slice: unknown key {!r}'.format(key)) from None
    return tuple(resolved)


class _View(TabularDataset):
    """Rows/columns of a base TabularDataset, with optional mode or converter."""

    def __init__(self, base, rows, key_indices, mode=None, converter=None):
        self._base = base
        self._rows = rows
        self._key_indices = key_indices
        self._mode = mode
        self._converter = converter

    def __len__(self):
        return len(self._base) if self._rows is None else len(self._rows)

    @property
    def keys(self):
        keys = self._base.keys
        if self._key_indices is None:
            return keys
        return tuple(keys[k] for k in self._key_indices)

    @property
    def mode(self):
        return self._base.mode if self._mode is None else self._mode

    def convert(self, data):
        if self._converter is not None:
            if isinstance(data, tuple):
                return self._converter(*data)
            if isinstance(data, dict):
                return self._converter(**data)
            return self._converter(data)
        return self._base.convert(data)

    def get_examples(self, indices, key_indices):
        rows = self._rows
        if indices is not None:
            local = numpy.arange(len(self))[indices] if isinstance(indices, slice) \
                else numpy.asarray(indices, dtype=numpy.intp)
            rows = local if rows is None else rows[local]
        if key_indices is not None and self._key_indices is not None:
            key_indices = tuple(self._key_indices[k] for k in key_indices)
        elif key_indices is None:
            key_indices = self._key_indices
        return self._base.get_examples(None if rows is None else list(rows), key_indices)


class _SliceHelper:
    def __init__(self, dataset):
        self._dataset = dataset

    def __getitem__(self, args):
        if isinstance(args, tuple):
            indices, keys = args
        else:
            indices, keys = args, None
        dataset = self._dataset
        return _View(dataset, _resolve_rows(indices, len(dataset)),
                     _resolve_keys(keys, tuple(dataset.keys)))
