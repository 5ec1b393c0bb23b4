"""TabularDataset.transform and transform_batch."""
import numpy
import pytest

from ._dummy import Dummy


@pytest.mark.parametrize('in_mode', [tuple, dict, None])
def test_transform_output_modes(in_mode):
    keys = ('a',) if in_mode is None else ('a', 'b', 'c')
    ds = Dummy(len_=4, keys=keys, mode=in_mode)

    def as_args(*args, **kwargs):
        values = args if in_mode is not dict else tuple(kwargs[k] for k in keys)
        return values[0]

    tup = ds.transform(('x', 'y'), lambda *a, **k: (as_args(*a, **k) * 2, 1))
    assert tup.keys == ('x', 'y') and len(tup) == 4
    assert tup.mode is tuple
    out = tup.get_examples([3, 1], (1, 0))
    assert out == ([1, 1], [ds.data[0, 3] * 2, ds.data[0, 1] * 2])
    assert tup[2] == (ds.data[0, 2] * 2, 1)

    dct = ds.transform(('x',), lambda *a, **k: {'x': -as_args(*a, **k)})
    assert dct.mode is dict
    assert dct.fetch() == {'x': list(-ds.data[0])}

    one = ds.transform('x', lambda *a, **k: as_args(*a, **k) + 1)
    assert one.keys == ('x',) and one.mode is None
    assert one[0] == ds.data[0, 0] + 1
    numpy.testing.assert_allclose(one.fetch(), ds.data[0] + 1)


def test_transform_receives_columns_by_name_in_dict_mode():
    ds = Dummy(len_=3, mode=dict)
    t = ds.transform(('s',), lambda c, b, a: (a + 10 * b + 100 * c,))
    numpy.testing.assert_allclose(t.fetch()[0], ds.data[0] + 10 * ds.data[1] + 100 * ds.data[2])


def test_transform_keeps_converter_and_checks_return_type():
    ds = Dummy(len_=4).with_converter(lambda *cols: 'base')
    t = ds.transform(('x',), lambda a, b, c: (a,))
    assert t.convert(t.fetch()) == 'base'
    calls = []

    def flip(a, b, c):
        calls.append(a)
        return (a,) if len(calls) % 2 else {'x': a}

    with pytest.raises(ValueError, match='transform must not change its return type'):
        Dummy(len_=4).transform(('x',), flip).fetch()
    with pytest.raises(TypeError, match='transform must be callable'):
        Dummy().transform(('x',), None)


def test_transform_is_lazy_and_mode_needs_one_call():
    calls = []
    ds = Dummy(len_=5)
    t = ds.transform(('x',), lambda a, b, c: calls.append(a) or (a,))
    assert calls == []
    assert t.mode is tuple and len(calls) == 1  # one example computed for the mode
    t.slice[[4, 2]].fetch()
    assert calls[1:] == [ds.data[0, 4], ds.data[0, 2]]


@pytest.mark.parametrize('in_mode', [tuple, dict])
def test_transform_batch(in_mode):
    ds = Dummy(len_=6, mode=in_mode)
    seen = []

    def batch(a, b, c):
        seen.append(len(a))
        return numpy.asarray(a) + numpy.asarray(c), numpy.asarray(b) * 0

    tb = ds.transform_batch(('s', 'z'), batch)
    assert tb.mode is tuple and tb.keys == ('s', 'z')
    s, = tb.get_examples(slice(1, 5, 2), (0,))
    numpy.testing.assert_allclose(s, ds.data[0, 1:5:2] + ds.data[2, 1:5:2])
    assert tb[4] == (ds.data[0, 4] + ds.data[2, 4], 0)
    assert seen[-1] == 1
    numpy.testing.assert_allclose(tb.fetch()[0], ds.data[0] + ds.data[2])

    td = ds.transform_batch(('s',), lambda a, b, c: {'s': numpy.asarray(a)[::-1]})
    assert td.mode is dict
    numpy.testing.assert_allclose(td.get_examples([0, 5], None)[0], ds.data[0, [5, 0]])
    t1 = ds.transform_batch('s', lambda a, b, c: list(b))
    assert t1.mode is None and t1.fetch() == list(ds.data[1])


def test_transform_batch_errors():
    ds = Dummy(len_=4)
    with pytest.raises(ValueError, match='must not change the length of data'):
        ds.transform_batch(('s',), lambda a, b, c: (a[:1],)).fetch()
    state = []

    def flip(a, b, c):
        state.append(1)
        return (a,) if len(state) == 1 else a

    t = ds.transform_batch(('s',), flip)
    t.fetch()
    with pytest.raises(ValueError, match='transform_batch must not change its return type'):
        t.fetch()
