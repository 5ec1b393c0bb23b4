"""TabularDataset core: fetch, get_example, iteration, convert, modes (incl. None)."""
import numpy
import pytest

from minichainer.dataset import tabular
from minichainer.iterators import SerialIterator

from ._dummy import Dummy, assert_columns


@pytest.mark.parametrize('return_array', [True, False])
def test_fetch_and_get_example_tuple_dict(return_array):
    ds = Dummy(mode=tuple, return_array=return_array)
    assert_columns(ds.fetch(), ds.data, return_array)
    assert ds.calls == [(None, None)]
    assert ds[3] == tuple(ds.data[:, 3])
    assert ds.calls[-1] == ([3], None)
    d = Dummy(mode=dict, return_array=return_array)
    fetched = d.fetch()
    assert list(fetched) == ['a', 'b', 'c']
    numpy.testing.assert_array_equal(fetched['b'], d.data[1])
    assert d.get_example(4) == dict(zip('abc', d.data[:, 4]))


def test_mode_none_dataset():
    ds = Dummy(keys=('a',), mode=None)
    numpy.testing.assert_array_equal(ds.fetch(), ds.data[0])
    assert ds[2] == ds.data[0, 2]
    assert list(ds) == list(ds.data[0])
    assert ds.convert(ds.fetch()).shape == (10,)


def test_iteration_slicing_and_iterator():
    ds = Dummy(len_=4)
    assert list(ds) == [tuple(ds.data[:, i]) for i in range(4)]
    assert ds[1:3] == [tuple(ds.data[:, 1]), tuple(ds.data[:, 2])]
    batch = SerialIterator(ds, 3, shuffle=False).next()
    assert batch == [tuple(ds.data[:, i]) for i in range(3)]


def test_convert_default_makes_arrays():
    ds = Dummy(len_=3)
    a, b, c = ds.convert(ds.fetch())
    assert all(isinstance(col, numpy.ndarray) for col in (a, b, c))
    numpy.testing.assert_array_equal(c, ds.data[2])
    arr = numpy.arange(3)
    assert ds.convert((arr,))[0] is arr  # arrays pass through untouched
    d = ds.asdict().convert(ds.asdict().fetch())
    assert set(d) == {'a', 'b', 'c'} and isinstance(d['a'], numpy.ndarray)


def test_astuple_asdict_views():
    ds = Dummy(mode=dict)
    t = ds.astuple()
    assert t.mode is tuple and t.keys == ds.keys and len(t) == 10
    assert t[0] == tuple(ds.data[:, 0])
    assert ds.as_tuple().mode is tuple and Dummy().as_dict().mode is dict
    back = t.asdict()
    assert back.mode is dict and back[1] == dict(zip('abc', ds.data[:, 1]))
    # the view keeps the converter of its dataset
    conv = ds.with_converter(lambda a, b, c: 'converted').astuple()
    assert conv.convert(conv.fetch()) == 'converted'


def test_with_converter():
    ds = Dummy(len_=3)
    w = ds.with_converter(lambda a, b, c: numpy.sum(a) + numpy.sum(c))
    assert w.convert(w.fetch()) == pytest.approx(ds.data[0].sum() + ds.data[2].sum())
    wd = ds.asdict().with_converter(lambda **kw: sorted(kw))
    assert wd.convert(wd.fetch()) == ['a', 'b', 'c']
    single = tabular.from_data([1, 2, 3]).with_converter(lambda x: len(x))
    assert single.convert(single.fetch()) == 3
    assert w.slice[1:].convert(w.slice[1:].fetch()) == pytest.approx(
        ds.data[0, 1:].sum() + ds.data[2, 1:].sum())
    with pytest.raises(TypeError, match='converter must be callable'):
        ds.with_converter(3)


def test_bad_mode_is_reported():
    ds = Dummy(mode=list)
    with pytest.raises(ValueError, match='mode must be tuple, dict or None, got'):
        ds.fetch()
