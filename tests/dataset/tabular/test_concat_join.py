"""TabularDataset.concat (rows) and join (columns)."""
import numpy
import pytest

from minichainer.dataset import TabularDataset

from ._dummy import Dummy, assert_columns

# (requested rows, rows asked of dataset a, rows asked of dataset b); a has 10, b 5
_CONCAT_CASES = [
    (None, None, None),
    ([3, 1, 4, 12, 14, 13, 7, 5], [3, 1, 4, 7, 5], [2, 4, 3]),
    ([3, 1, 4], [3, 1, 4], 'unused'),
    ([12, 10], 'unused', [2, 0]),
    (slice(13, 6, -2), slice(9, 6, -2), slice(3, None, -2)),
    (slice(9, None, -2), slice(9, None, -2), 'unused'),
    (slice(1, 14, 4), slice(1, 10, 4), slice(3, 4, 4)),
    (slice(11, 20), 'unused', slice(1, 5, 1)),
    # as in Chainer, the start may lie one past the end (Python slicing clamps it)
    (slice(None, None, -1), slice(10, None, -1), slice(4, None, -1)),
    ([], 'unused', 'unused'),
    (slice(4, 4), 'unused', 'unused'),
]


@pytest.mark.parametrize('return_array', [True, False])
@pytest.mark.parametrize('modes', [(tuple, tuple), (dict, tuple)])
def test_concat(return_array, modes):
    a = Dummy(mode=modes[0], return_array=return_array, seed=1)
    b = Dummy(len_=5, mode=modes[1], return_array=return_array, seed=2)
    view = a.concat(b)
    assert isinstance(view, TabularDataset)
    assert len(view) == 15 and view.keys == a.keys and view.mode is modes[0]
    everything = numpy.hstack((a.data, b.data))
    for indices, expected_a, expected_b in _CONCAT_CASES:
        for key_indices in (None, (2, 0)):
            a.calls.clear()
            b.calls.clear()
            output = view.get_examples(indices, key_indices)
            expected = everything if indices is None else everything[:, indices]
            if key_indices is not None:
                expected = expected[list(key_indices)]
            # a single source dataset's output is returned as is; mixed ones as lists
            one_source = 'unused' in (expected_a, expected_b)
            assert_columns(output, expected, return_array and one_source
                           and len(expected[0]) > 0)
            assert a.calls == ([] if expected_a == 'unused' else [(expected_a, key_indices)])
            assert b.calls == ([] if expected_b == 'unused' else [(expected_b, key_indices)])


def test_concat_many_and_convert_of_first():
    parts = [Dummy(len_=n, seed=n) for n in (2, 3, 4)]
    first = parts[0].with_converter(lambda a, b, c: 'first')
    view = first.concat(*parts[1:])
    assert len(view) == 9
    everything = numpy.hstack([p.data for p in parts])
    numpy.testing.assert_array_equal(view.slice[[8, 0, 4, 2]].fetch()[1],
                                     everything[1, [8, 0, 4, 2]])
    assert view.convert(view.fetch()) == 'first'
    assert view[5] == tuple(everything[:, 5])
    with pytest.raises(IndexError, match='index 9 is out of bounds for a dataset of length 9'):
        view.get_examples([0, 9], None)


@pytest.mark.parametrize('keys', [('a', 'b'), ('b', 'a', 'c')])
def test_concat_needs_same_keys(keys):
    with pytest.raises(ValueError, match='same keys'):
        Dummy().concat(Dummy(keys=keys))


@pytest.mark.parametrize('return_array', [True, False])
def test_join(return_array):
    a = Dummy(mode=dict, return_array=return_array, seed=1)
    b = Dummy(keys=('d', 'e'), mode=tuple, return_array=return_array, seed=2)
    view = a.join(b)
    assert view.keys == ('a', 'b', 'c', 'd', 'e') and view.mode is dict and len(view) == 10
    everything = numpy.vstack((a.data, b.data))
    for indices in (None, [3, 1], slice(2, 9, 3)):
        for key_indices in (None, (4,), (3, 0), (1, 1), (4, 2, 3)):
            a.calls.clear()
            b.calls.clear()
            output = view.get_examples(indices, key_indices)
            expected = everything if indices is None else everything[:, indices]
            if key_indices is not None:
                expected = expected[list(key_indices)]
            assert_columns(output, expected, return_array)
            # only the datasets holding requested keys are asked, each key once
            if key_indices == (4,):
                assert a.calls == [] and b.calls == [(indices, (1,))]
            if key_indices == (1, 1):
                assert a.calls == [(indices, (1,))] and b.calls == []
    assert view[2] == dict(zip('abcde', everything[:, 2]))
    numpy.testing.assert_array_equal(view.slice[:, ('e', 'a')].fetch()['e'], b.data[1])


def test_join_mode_and_converter():
    single = Dummy(keys=('x',), mode=None)
    other = Dummy(keys=('y',), mode=None)
    assert single.join(other).mode is tuple
    assert single.join(Dummy(keys=('z', 'w'), mode=dict)).mode is dict
    j = single.with_converter(lambda *cols: len(cols)).join(other)
    assert j.convert(j.fetch()) == 2


def test_join_errors():
    with pytest.raises(ValueError, match='same length, got 10 and 5'):
        Dummy().join(Dummy(len_=5, keys=('d',)))
    with pytest.raises(ValueError, match=r"unique among all datasets, \['b'\]"):
        Dummy().join(Dummy(keys=('b', 'z')))
    with pytest.raises(IndexError, match='key index 5 is out of bounds for 4 keys'):
        Dummy().join(Dummy(keys=('d',))).get_examples(None, (5,))
