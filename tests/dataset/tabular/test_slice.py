"""TabularDataset.slice: rows by ints/bools/slices, columns by names/positions."""
import numpy
import pytest

from ._dummy import Dummy, assert_columns

_INDICES = [
    (slice(None), list(range(10))),
    ([3, -2], [3, 8]),
    (numpy.array([3, -2], numpy.int32), [3, 8]),
    ([i in (1, 3) for i in range(10)], [1, 3]),
    (slice(3, None, -2), [3, 1]),
    (slice(2, 9, 3), [2, 5, 8]),
    ([], []),
]
_KEYS = [(None, [0, 1, 2]), ((1,), [1]), (('c',), [2]), ((-1, 'a'), [2, 0])]


_SUB_INDICES = [None, [1], [1, 0], slice(0, 2), slice(1, None, -1)]
_SUB_KEYS = [None, (0,), (0, 0)]


def _check_view(ds, indices, rows, keys, cols, sub_indices, sub_keys):
    view = ds.slice[indices] if keys is None else ds.slice[indices, keys]
    assert len(view) == len(rows)
    assert view.keys == tuple('abc'[c] for c in cols)
    assert view.mode is ds.mode
    expected = ds.data[cols][:, rows]
    if sub_indices is not None:
        if isinstance(sub_indices, list) and len(rows) < 2:
            return
        expected = expected[:, sub_indices]
    if sub_keys is not None:
        expected = expected[list(sub_keys)]
    ds.calls.clear()
    assert_columns(view.get_examples(sub_indices, sub_keys), expected, ds._return_array)
    # what reached the base dataset: slices stay slices, lists stay lists
    (base_indices, base_keys), = ds.calls
    if isinstance(indices, slice) and (sub_indices is None or isinstance(sub_indices, slice)):
        assert isinstance(base_indices, slice)
    else:
        assert isinstance(base_indices, list)
    if keys is None and sub_keys is None:
        assert base_keys is None
    else:
        assert isinstance(base_keys, tuple)


@pytest.mark.parametrize('mode', [tuple, dict])
@pytest.mark.parametrize('return_array', [True, False])
def test_slice_views(mode, return_array):
    ds = Dummy(mode=mode, return_array=return_array)
    for indices, rows in _INDICES:
        for keys, cols in _KEYS:
            for sub_indices in _SUB_INDICES:
                for sub_keys in _SUB_KEYS:
                    _check_view(ds, indices, rows, keys, cols, sub_indices, sub_keys)


def test_single_key_gives_mode_none_and_nested_slices():
    ds = Dummy(mode=dict)
    col = ds.slice[:, 'b']
    assert col.mode is None and col.keys == ('b',)
    numpy.testing.assert_array_equal(col.fetch(), ds.data[1])
    assert col[4] == ds.data[1, 4]
    assert ds.slice[:, ('b',)].mode is dict
    assert Dummy(mode=None, keys=('a',)).slice[:, ('a',)].mode is tuple
    nested = ds.slice[::-1].slice[2:8:2].slice[[2, 0]]
    numpy.testing.assert_array_equal(nested.fetch()['a'], ds.data[0, [3, 7]])
    back = ds.slice[8:1:-3].slice[::-1]
    numpy.testing.assert_array_equal(back.fetch()['c'], ds.data[2, [2, 5, 8]])


@pytest.mark.parametrize('args, exc, match', [
    (([11, 1],), IndexError, 'index 11 is out of bounds for a dataset of length 10'),
    (([-11],), IndexError, 'out of bounds'),
    (([True] * 11,), ValueError, 'boolean mask must have one entry per row: got 11'),
    ((slice(None), (3,)), IndexError, 'key index 3 is out of bounds for 3 keys'),
    ((slice(None), ('d',)), KeyError, "key 'd' does not exist"),
    ((slice(None), 'd'), KeyError, "key 'd'"),
    ((3,), TypeError, 'indices must be a slice or a sequence'),
    ((slice(None), 'a', 1), ValueError, r'expected \[indices\] or \[indices, keys\]'),
])
def test_slice_errors(args, exc, match):
    ds = Dummy()
    with pytest.raises(exc, match=match):
        ds.slice[args if len(args) > 1 else args[0]]
