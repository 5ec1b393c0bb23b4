"""A minibatch gathered from array-backed datasets in one indexing call per array.

:class:`ExampleBatch` is what iterators return for ``TupleDataset``/``DictDataset``
of ndarrays, ``SubDataset`` of them and plain ndarray datasets. It behaves as the
list of examples Chainer would return (``len``, indexing, iteration, ``==`` with a
list, ``zip(*batch)``, ``+``, list mutators), while
:func:`~minichainer.dataset.concat_examples` takes the already stacked arrays
without touching the examples. Examples are materialised on first access.

Differences from a plain ``list`` (and from Chainer): ``isinstance(batch, list)`` is
False, examples are views into the gathered batch arrays rather than into the
dataset, and copying or pickling gives a plain ``list``.
"""
import collections.abc

import numpy

_TUPLE = 0
_DICT = 1
_ARRAY = 2


class ExampleBatch(collections.abc.MutableSequence):
    """List-like batch of examples backed by stacked arrays.

    Args:
        arrays: A tuple of arrays (tuple examples), a dict of arrays (dict examples)
            or one array (each row is an example). All have the same length.
    """

    __slots__ = ('_arrays', '_kind', '_len', '_examples', '_handed_out')
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
        self._kind = kind
        self._len = n
        self._examples = None
        self._handed_out = False

    # -- fast path used by concat_examples ---------------------------------------
    def _stacked(self):
        """Return the stacked arrays and kind, or None once the list was modified.

        The first call hands out the gathered arrays themselves; later calls copy
        them so that two conversions of one batch never share memory.
        """
        arrays = self._arrays
        if arrays is None:
            return None
        if self._handed_out:
            if self._kind == _TUPLE:
                arrays = tuple([a.copy() for a in arrays])
            elif self._kind == _DICT:
                arrays = {k: a.copy() for k, a in arrays.items()}
            else:
                arrays = arrays.copy()
        else:
            self._handed_out = True
        return self._kind, arrays

    # -- materialisation -----------------------------------------------------------
    def _list(self):
        examples = self._examples
        if examples is None:
            arrays = self._arrays
            kind = self._kind
            if kind == _TUPLE:
                examples = list(zip(*arrays))
            elif kind == _DICT:
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
        if self._kind == _ARRAY and self._arrays is not None:
            array = self._arrays
            if dtype is not None and array.dtype != dtype:
                return array.astype(dtype)
            return array.copy() if copy else array
        return numpy.array(self._list(), dtype=dtype)
