"""tabular.from_data and tabular.DelegateDataset."""
import numpy
import pytest

from minichainer.dataset import tabular
from minichainer.dataset import TabularDataset


def test_unnamed_list_and_array():
    ds = tabular.from_data([4, 5, 6])
    assert isinstance(ds, TabularDataset) and ds.mode is None and len(ds) == 3
    assert ds[1] == 5 and ds.fetch() == [4, 5, 6]
    assert ds.keys[0].startswith('_')
    arr = numpy.arange(5) * 3
    da = tabular.from_data(arr)
    assert da.fetch() is arr
    numpy.testing.assert_array_equal(da.slice[[4, 0]].fetch(), [12, 0])
    numpy.testing.assert_array_equal(da.slice[1:4:2].fetch(), [3, 9])


def test_named_columns_tuple_mode():
    a = numpy.arange(10)
    ds = tabular.from_data((('a', a), ('b', list(range(10, 20))), [0] * 10))
    assert ds.mode is tuple and ds.keys[:2] == ('a', 'b') and len(ds.keys) == 3
    assert ds[3] == (3, 13, 0)
    b, a_col = ds.slice[[2, 7], ('b', 'a')].fetch()
    assert b == [12, 17]
    assert isinstance(a_col, numpy.ndarray) and a_col.tolist() == [2, 7]


def test_callables_and_size():
    ds = tabular.from_data(('sq', lambda i: i * i), size=5)
    assert ds.keys == ('sq',) and ds.mode is None and len(ds) == 5
    assert ds.fetch() == [0, 1, 4, 9, 16] and ds[3] == 9
    multi = tabular.from_data((('x', [5, 6, 7]), (('p', 'q'), lambda i: (i, -i))))
    assert multi.keys == ('x', 'p', 'q') and len(multi) == 3  # size from the list
    assert multi[2] == (7, 2, -2)
    assert multi.slice[::-1, 'q'].fetch() == [-2, -1, 0]


def test_dict_mode():
    ds = tabular.from_data({'a': numpy.arange(3), ('c', 'd'): lambda i: {'c': i, 'd': 2 * i}})
    assert ds.mode is dict and ds.keys == ('a', 'c', 'd')
    assert ds[2] == {'a': 2, 'c': 2, 'd': 4}


@pytest.mark.parametrize('data, kwargs, exc, match', [
    (('x', lambda i: i), {}, ValueError, 'size must be specified'),
    (lambda i: i, {'size': 3}, ValueError, 'key.*must be specified'),
    ((('a', [1, 2]), ('b', [1, 2, 3])), {}, ValueError, 'same length'),
    ((('a', [1, 2]), ('a', [3, 4])), {}, ValueError, 'unique'),
    (('x', 3), {}, TypeError, 'list, an array or a callable, got int'),
])
def test_errors(data, kwargs, exc, match):
    with pytest.raises(exc, match=match):
        tabular.from_data(data, **kwargs)


class _MyDataset(tabular.DelegateDataset):
    def __init__(self):
        super().__init__(tabular.from_data((
            ('a', numpy.arange(4)), ('b', self.get_b), (('d', 'e'), self.get_de))))

    def get_b(self, i):
        return 'b[{}]'.format(i)

    def get_de(self, i):
        return {'d': i / 2, 'e': 'e'}


def test_delegate_dataset():
    ds = _MyDataset()
    assert len(ds) == 4 and ds.keys == ('a', 'b', 'd', 'e') and ds.mode is tuple
    assert ds[1] == (1, 'b[1]', 0.5, 'e')
    assert ds.slice[[3], ('b',)].fetch() == (['b[3]'],)
    inner = ds.dataset.with_converter(lambda *c: 'inner')
    outer = tabular.DelegateDataset(inner)
    # DelegateDataset keeps the default converter, not the wrapped one's
    assert isinstance(outer.convert(outer.fetch())[0], numpy.ndarray)
