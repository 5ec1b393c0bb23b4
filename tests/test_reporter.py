import threading
import warnings

import numpy
import pytest

import minichainer
from minichainer import configuration
from minichainer import reporter
from minichainer.serializers import npz


def test_report_with_observer_prefixes_name():
    r = reporter.Reporter()
    observer = object()
    r.add_observer('main', observer)
    observation = {}
    with r.scope(observation):
        reporter.report({'x': 1, 'y': 2.5}, observer)
    assert observation == {'main/x': 1, 'main/y': 2.5}


def test_report_without_observer_and_outside_scope():
    r = reporter.Reporter()
    observation = {}
    with r.scope(observation):
        r.report({'x': 3})
    assert observation == {'x': 3}
    reporter.report({'ignored': 1})  # no current reporter: nothing happens


def test_add_observers_and_nested_scopes():
    r = reporter.Reporter()
    a, b = object(), object()
    r.add_observers('main', [('/l1', a), ('/l2', b)])
    outer, inner = {}, {}
    with r.scope(outer):
        reporter.report({'v': 1}, a)
        with reporter.report_scope(inner):
            reporter.report({'v': 2}, b)
        reporter.report({'w': 3}, b)
    assert outer == {'main/l1/v': 1, 'main/l2/w': 3}
    assert inner == {'main/l2/v': 2}


def test_unregistered_observer_raises_keyerror():
    r = reporter.Reporter()
    with r.scope({}):
        with pytest.raises(KeyError, match='not registered'):
            reporter.report({'x': 1}, object())


def test_current_reporter_stack_and_error():
    r1, r2 = reporter.Reporter(), reporter.Reporter()
    with r1:
        assert reporter.get_current_reporter() is r1
        with r2:
            assert reporter.get_current_reporter() is r2
        assert reporter.get_current_reporter() is r1
    with pytest.raises(IndexError, match='no reporter'):
        reporter.get_current_reporter()


def test_reporter_stack_is_thread_local():
    r = reporter.Reporter()
    seen = []
    with r:
        t = threading.Thread(target=lambda: seen.append(reporter._get_reporters()[:]))
        t.start()
        t.join()
    assert seen == [[]]


def test_variable_is_copied_without_graph_unless_keep_graph():
    x = minichainer.Variable(numpy.array([1.0, 2.0], numpy.float32))
    y = minichainer.functions.sum(x * x)
    r = reporter.Reporter()
    obs = {}
    with r.scope(obs):
        reporter.report({'y': y})
    assert obs['y'] is not y
    assert obs['y'].creator is None
    assert obs['y'].array is y.array
    obs = {}
    with configuration.using_config('keep_graph_on_report', True):
        with r.scope(obs):
            reporter.report({'y': y})
    assert obs['y'] is y


def test_lazy_top_level_names():
    assert minichainer.Reporter is reporter.Reporter
    assert minichainer.report is reporter.report
    assert minichainer.DictSummary is reporter.DictSummary


def test_summary_mean_std_and_weights():
    s = reporter.Summary()
    for v in [1.0, 2.0, 3.0, 6.0]:
        s.add(numpy.float32(v))
    assert s.compute_mean() == pytest.approx(3.0)
    mean, std = s.make_statistics()
    assert mean == pytest.approx(3.0)
    assert std == pytest.approx(numpy.std([1, 2, 3, 6]), rel=1e-5)
    w = reporter.Summary()
    w.add(1.0, weight=3)
    w.add(5.0, weight=1)
    assert w.compute_mean() == pytest.approx(2.0)


def test_dict_summary_filters_non_scalars_and_variables():
    d = reporter.DictSummary()
    d.add({'a': 1.0, 'b': numpy.array(2.0, numpy.float32),
           'c': minichainer.Variable(numpy.array(4.0, numpy.float32)),
           'vec': numpy.ones(3), 'text': 'skip'})
    d.add({'a': 3.0, 'c': minichainer.Variable(numpy.array(6.0, numpy.float32))})
    mean = d.compute_mean()
    assert set(mean) == {'a', 'b', 'c'}
    assert mean['a'] == pytest.approx(2.0)
    assert mean['c'] == pytest.approx(5.0)
    stats = d.make_statistics()
    assert stats['a.std'] == pytest.approx(1.0)


def test_dict_summary_weighted_tuple_and_bad_weight():
    d = reporter.DictSummary()
    d.add({'acc': (0.5, 2)})
    d.add({'acc': (1.0, 2)})
    assert d.compute_mean()['acc'] == pytest.approx(0.75)
    with pytest.raises(ValueError, match="'acc'"):
        d.add({'acc': (1.0, numpy.ones(2))})


def test_dict_summary_serialize_round_trip():
    d = reporter.DictSummary()
    d.add({'x': 1.0, 'y': 10.0})
    d.add({'x': 3.0})
    s = npz.DictionarySerializer()
    d.serialize(s)
    assert str(s.target['_names']) == '["x", "y"]'
    loaded = reporter.DictSummary()
    loaded.serialize(npz.NpzDeserializer(s.target))
    assert loaded.compute_mean() == pytest.approx(d.compute_mean())
    loaded.add({'x': 5.0})
    assert loaded.compute_mean()['x'] == pytest.approx(3.0)


def test_dict_summary_missing_names_warns():
    d = reporter.DictSummary()
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter('always')
        d.serialize(npz.NpzDeserializer({}))
    assert any('not saved' in str(x.message) for x in w)


def _naive(values):
    # Chainer 7.8.1's ``_x += 1 * v; _x2 += 1 * v * v`` from 0.0 as NumPy 1.x evaluated
    # it: ``1 * v`` of a NumPy float32 is a float64 there (NumPy 2 would keep float32).
    x = x2 = 0.0
    for v in values:
        if isinstance(v, (numpy.generic, numpy.ndarray)) and v.dtype.kind == 'f':
            v = numpy.float64(v)
        x += v
        x2 += v * v
    return x, x2


@pytest.mark.parametrize('kind', ['f32_arrays', 'f64_scalars', 'py_floats', 'mixed', 'ints'])
def test_summary_sums_are_bit_identical_to_sequential_adds(kind):
    rng = numpy.random.RandomState(0)
    raw = rng.rand(2500) * 10
    if kind == 'f32_arrays':
        values = [numpy.array(v, numpy.float32) for v in raw]
    elif kind == 'f64_scalars':
        values = [numpy.float64(v) for v in raw]
    elif kind == 'py_floats':
        values = [float(v) for v in raw]
    elif kind == 'mixed':
        values = [numpy.array(v, numpy.float32) if i % 3 else float(v)
                  for i, v in enumerate(raw)]
    else:
        values = [int(v) for v in raw]
    s = reporter.Summary()
    for v in values:
        s.add(v)
    x, x2 = _naive(values)
    assert s._x == x and type(s._x) is type(x)
    assert s._x2 == x2
    assert s._n == len(values)
    assert s.compute_mean() == x / len(values)


def test_summary_weighted_after_unweighted_keeps_order():
    values = [numpy.array(v, numpy.float32) for v in [0.1, 0.2, 0.3]]
    s = reporter.Summary()
    s.add(values[0])
    s.add(values[1], weight=2)
    s.add(values[2])
    f64 = numpy.float64
    expected = 0.0 + f64(values[0]) + 2 * f64(values[1]) + f64(values[2])
    assert s._x == expected and type(s._x) is numpy.float64
    assert s._n == 4


def test_summary_of_float32_accumulates_in_float64_on_every_numpy():
    # On NumPy 1.x (Chainer 7.8.1's), 0.0 + 1 * float32 is float64: LogReport's means of
    # float32 losses are float64 sums; NumPy 2's weak Python scalars must not change it.
    values = [numpy.float32(0.1), numpy.array(0.2, numpy.float32), numpy.float32(0.3)]
    s = reporter.Summary()
    for v in values:
        s.add(v)
    f64 = numpy.float64
    mean = s.compute_mean()
    assert type(mean) is numpy.float64
    assert mean == (f64(values[0]) + f64(values[1]) + f64(values[2])) / 3
    m, std = s.make_statistics()
    assert type(std) is numpy.float64
    # weighted: a float32 weight times a float32 value stays float32 (both NumPy
    # scalars), then joins the float64 sum; the sum of weights is float64 as well
    w = reporter.Summary()
    w.add(numpy.float32(0.5), weight=numpy.float32(3))
    assert type(w._x) is numpy.float64 and w._x == f64(numpy.float32(1.5))
    assert type(w._n) is numpy.float64 and w._n == 3
    # Python floats stay Python floats, as in Chainer
    p = reporter.Summary()
    p.add(0.25)
    p.add(0.5)
    assert type(p.compute_mean()) is float and p.compute_mean() == 0.375
