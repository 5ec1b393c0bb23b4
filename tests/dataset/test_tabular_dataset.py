import numpy
import pytest

from minichainer.dataset import TabularDataset
from minichainer.iterators import SerialIterator


class _Dummy(TabularDataset):
    def __init__(self, mode=tuple):
        self.data = numpy.arange(12).reshape(3, 4)  # 3 columns, 4 rows
        self._mode = mode

    def __len__(self):
        return self.data.shape[1]

    @property
    def keys(self):
        return ('a', 'b', 'c')

    @property
    def mode(self):
        return self._mode

    def get_examples(self, indices, key_indices):
        data = self.data
        if indices is not None:
            data = data[:, indices]
        if key_indices is not None:
            data = data[list(key_indices)]
        return tuple(list(d) for d in data)


def test_examples_fetch_and_modes():
    ds = _Dummy()
    assert len(ds) == 4 and ds[1] == (1, 5, 9) and ds[1:3] == [(1, 5, 9), (2, 6, 10)]
    assert ds.fetch() == ([0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11])
    assert ds.as_dict()[0] == {'a': 0, 'b': 4, 'c': 8}
    assert _Dummy(dict).as_tuple().mode is tuple
    a, b, c = ds.convert(ds.fetch())
    assert isinstance(a, numpy.ndarray) and list(c) == [8, 9, 10, 11]


def test_slice_views():
    ds = _Dummy(dict)
    view = ds.slice[[3, 1], ('c', 0)]
    assert len(view) == 2 and view.keys == ('c', 'a')
    assert view.fetch() == {'c': [11, 9], 'a': [3, 1]}
    assert view[0] == {'c': 11, 'a': 3}
    assert ds.slice[numpy.array([True, False, True, False])].fetch()['b'] == [4, 6]
    assert ds.slice[1:].slice[::2].fetch()['a'] == [1, 3]
    with pytest.raises(KeyError):
        ds.slice[:, ('z',)]
    conv = ds.with_converter(lambda a, b, c: a)
    assert conv.convert(conv.fetch()) == [0, 1, 2, 3]


def test_iterates_as_list_of_examples():
    batch = SerialIterator(_Dummy(), 2, shuffle=False).next()
    assert batch == [(0, 4, 8), (1, 5, 9)]
