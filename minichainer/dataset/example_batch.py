"""The batch protocol: a minibatch that already holds its examples as stacked arrays.

Three parties take part, each through public names only:

* **Datasets** that keep their examples in arrays define
  `get_example_batch(indices)`: gather the examples at `indices` (an int array)
  with one indexing call per array and return an
  [`ExampleBatch`][minichainer.dataset.example_batch.ExampleBatch], or None when they cannot (then
  the batch is built example by example, as in Chainer). `TupleDataset`/`DictDataset` of ndarrays
  and `SubDataset` of those do; a plain ndarray dataset is gathered directly.
* **Iterators** build their batches with
  [`gather_batch`][minichainer.dataset.example_batch.gather_batch].
* **Converters** ask an [`ExampleBatch`][minichainer.dataset.example_batch.ExampleBatch] for
  [`ExampleBatch.stacked_arrays`][minichainer.dataset.example_batch.ExampleBatch.stacked_arrays] and
  read `ExampleBatch.layout` (a [`BatchLayout`][minichainer.dataset.example_batch.BatchLayout]) to
  know its shape; `concat_examples` returns those arrays without restacking.

An [`ExampleBatch`][minichainer.dataset.example_batch.ExampleBatch] behaves as the list of examples
Chainer would return (`len`, indexing, iteration, `==` with a list, `zip(*batch)`, `+`, list
mutators); the examples are materialised on first access.  Differences from a plain `list` (and
from Chainer): `isinstance(batch, list)` is False, examples are views into the
gathered batch arrays rather than into the dataset, and copying or pickling gives a
plain `list`.
"""
import collections.abc
import enum

import numpy


class BatchLayout(enum.Enum):
    """How the stacked arrays of an
    [`ExampleBatch`][minichainer.dataset.example_batch.ExampleBatch] are arranged."""

    TUPLE = 'tuple'
    """A tuple of arrays, one per element of the (tuple) examples."""
    DICT = 'dict'
    """A dict of arrays, one per key of the (dict) examples."""
    ARRAY = 'array'
    """One array whose rows are the examples."""


_TUPLE = BatchLayout.TUPLE
_DICT = BatchLayout.DICT
_ARRAY = BatchLayout.ARRAY


def gather_batch(dataset, indices):
    """Return the examples of `dataset` at `indices` as a batch.

    An ndarray dataset, and a dataset whose `get_example_batch(indices)` returns an
    [`ExampleBatch`][minichainer.dataset.example_batch.ExampleBatch], give that batch (one indexing
    call per array); any other dataset gives the list `[dataset[i] for i in indices]`, as in
    Chainer.
    """
    if type(dataset) is numpy.ndarray:
        return ExampleBatch(dataset[indices])
    get_example_batch = getattr(dataset, 'get_example_batch', None)
    if get_example_batch is not None:
        batch = get_example_batch(indices)
        if batch is not None:
            return batch
    return [dataset[index] for index in indices]


class ExampleBatch(collections.abc.MutableSequence):
    """List-like batch of examples backed by stacked arrays.

    Args:
        arrays: A tuple of arrays (tuple examples), a dict of arrays (dict examples)
            or one array (each row is an example). All have the same length.

    Attributes:
        layout (BatchLayout): how `arrays` are arranged.
    """

    __slots__ = ('_arrays', 'layout', '_len', '_examples', '_handed_out')
    __hash__ = None

    def __init__(self, arrays):
        if isinstance(arrays, tuple):
            kind = _TUPLE
            n = len(arrays[0])
        elif isinstance(arrays, dict):
            kind = _DICT
            n = len(next(iter(arrays.values())))
        else:
            kind = _ARRAY
            n = len(arrays)
        self._arrays = arrays
        self.layout = kind
        self._len = n
        self._examples = None
        self._handed_out = False

    # -- the converters' side of the protocol -------------------------------------
    def stacked_arrays(self):
        """Return the stacked arrays (arranged as `layout` says), or None.

        None means the batch no longer matches them (the list was modified, or dict
        examples were handed out and may have been): convert it example by example.
        The first call hands out the gathered arrays themselves; later calls copy
        them so that two conversions of one batch never share memory.
        """
        arrays = self._arrays
        if arrays is None:
            return None
        if self._handed_out:
            layout = self.layout
            if layout is _TUPLE:
                arrays = tuple([a.copy() for a in arrays])
            elif layout is _DICT:
                arrays = {k: a.copy() for k, a in arrays.items()}
            else:
                arrays = arrays.copy()
        else:
            self._handed_out = True
        return arrays

    # -- materialisation -----------------------------------------------------------
    def _list(self):
        examples = self._examples
        if examples is None:
            arrays = self._arrays
            layout = self.layout
            if layout is _TUPLE:
                examples = list(zip(*arrays))
            elif layout is _DICT:
                keys = list(arrays)
                examples = [dict(zip(keys, values)) for values in zip(*arrays.values())]
                # dict examples are mutable: the stacked arrays could go stale
                self._arrays = None
            else:
                examples = list(arrays)
            self._examples = examples
        return examples

    def _modify(self):
        examples = self._list()
        self._arrays = None
        return examples

    # -- sequence protocol ---------------------------------------------------------
    def __len__(self):
        if self._examples is not None:
            return len(self._examples)
        return self._len

    def __bool__(self):
        return len(self) > 0

    def __getitem__(self, index):
        return self._list()[index]

    def __iter__(self):
        return iter(self._list())

    def __reversed__(self):
        return reversed(self._list())

    def __contains__(self, value):
        return value in self._list()

    def __setitem__(self, index, value):
        self._modify()[index] = value

    def __delitem__(self, index):
        del self._modify()[index]

    def insert(self, index, value):
        self._modify().insert(index, value)

    def append(self, value):
        self._modify().append(value)

    def extend(self, values):
        self._modify().extend(values)

    def pop(self, index=-1):
        return self._modify().pop(index)

    def remove(self, value):
        self._modify().remove(value)

    def clear(self):
        self._modify().clear()

    def reverse(self):
        self._modify().reverse()

    def sort(self, *, key=None, reverse=False):
        self._modify().sort(key=key, reverse=reverse)

    def index(self, value, *args):
        return self._list().index(value, *args)

    def count(self, value):
        return self._list().count(value)

    def copy(self):
        """Return the examples as a new plain list."""
        return list(self._list())

    def __iadd__(self, values):
        self._modify().extend(values)
        return self

    def __add__(self, other):
        if isinstance(other, (list, ExampleBatch)):
            return list(self._list()) + list(other)
        return NotImplemented

    def __radd__(self, other):
        if isinstance(other, list):
            return other + list(self._list())
        return NotImplemented

    def __mul__(self, n):
        return list(self._list()) * n

    __rmul__ = __mul__

    def __eq__(self, other):
        if isinstance(other, ExampleBatch):
            other = other._list()
        if isinstance(other, list):
            return self._list() == other
        return NotImplemented

    def __ne__(self, other):
        result = self.__eq__(other)
        if result is NotImplemented:
            return result
        return not result

    def __repr__(self):
        return repr(self._list())

    def __reduce__(self):
        return list, (list(self._list()),)

    def __array__(self, dtype=None, copy=None):
        if self.layout is _ARRAY and self._arrays is not None:
            array = self._arrays
            if dtype is not None and array.dtype != dtype:
                return array.astype(dtype)
            return array.copy() if copy else array
        return numpy.array(self._list(), dtype=dtype)
