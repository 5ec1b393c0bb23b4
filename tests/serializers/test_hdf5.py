"""HDF5 serializers (need the optional h5py)."""
import builtins

import numpy
import pytest

import minichainer.links as L
from minichainer import optimizers
from minichainer import serializers
from minichainer.serializers import hdf5


class Holder:
    def __init__(self):
        self.n, self.name, self.nothing = 3, 'abc', None
        self.arr = numpy.arange(4, dtype=numpy.float32)

    def serialize(self, s):
        self.n = s('n', self.n)
        self.name = s('name', self.name)
        self.nothing = s('nothing', self.nothing)
        self.arr = s('arr', self.arr)


def test_missing_h5py_gives_a_clear_error(monkeypatch, tmp_path):
    real_import = builtins.__import__

    def fake_import(name, *args, **kwargs):
        if name == 'h5py':
            raise ImportError('no h5py')
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, '__import__', fake_import)
    with pytest.raises(ImportError, match=r'pip install minichainer\[hdf5\]'):
        serializers.save_hdf5(tmp_path / 'x.h5', Holder())
    with pytest.raises(RuntimeError):  # what Chainer raises
        serializers.load_hdf5(tmp_path / 'x.h5', Holder())
    with pytest.raises(RuntimeError):
        hdf5.HDF5Serializer(None)


def test_available_flag_does_not_import_h5py(monkeypatch):
    import importlib
    import sys
    monkeypatch.setitem(sys.modules, 'h5py', None)
    module = importlib.reload(hdf5)
    try:
        assert module._available is False
        with pytest.raises(RuntimeError):
            module.HDF5Deserializer(None)
    finally:
        monkeypatch.undo()
        importlib.reload(hdf5)


def test_round_trip_with_chainer_groups(tmp_path):
    h5py = pytest.importorskip('h5py')
    model = L.Classifier(L.Linear(3, 2))
    opt = optimizers.MomentumSGD().setup(model)
    for p in model.params():
        p.grad = numpy.ones_like(p.array)
    opt.update()
    serializers.save_hdf5(tmp_path / 'm.h5', model)
    serializers.save_hdf5(tmp_path / 'o.h5', opt)
    with h5py.File(tmp_path / 'o.h5', 'r') as f:
        assert f['predictor/W/v'].shape == (2, 3)
        assert int(f['t'][()]) == 1
    model2 = L.Classifier(L.Linear(3, 2))
    opt2 = optimizers.MomentumSGD().setup(model2)
    serializers.load_hdf5(tmp_path / 'm.h5', model2)
    serializers.load_hdf5(tmp_path / 'o.h5', opt2)
    numpy.testing.assert_array_equal(model2.predictor.W.array, model.predictor.W.array)
    numpy.testing.assert_array_equal(model2.predictor.W.update_rule.state['v'],
                                     model.predictor.W.update_rule.state['v'])
    assert opt2.t == 1


def test_none_strings_and_errors(tmp_path):
    pytest.importorskip('h5py')
    serializers.save_hdf5(tmp_path / 'h.h5', Holder())
    h = Holder()
    h.n, h.name, h.nothing = 0, '', 'x'
    h.arr[...] = 0
    serializers.load_hdf5(tmp_path / 'h.h5', h)
    assert (h.n, h.name, h.nothing) == (3, 'abc', None)
    numpy.testing.assert_array_equal(h.arr, numpy.arange(4))
    with pytest.raises(KeyError, match="'W' not found"):
        serializers.load_hdf5(tmp_path / 'h.h5', L.Linear(3, 2))
    with pytest.raises(ValueError, match="inexistent group '/predictor'"):
        serializers.load_hdf5(tmp_path / 'h.h5', L.Classifier(L.Linear(3, 2)))
    serializers.save_hdf5(tmp_path / 'l.h5', L.Linear(3, 2))
    with pytest.raises(ValueError, match=r'\(2, 3\).*\(2, 4\)'):
        serializers.load_hdf5(tmp_path / 'l.h5', L.Linear(4, 2))
    assert sorted(p.name for p in tmp_path.iterdir()) == ['h.h5', 'l.h5']


def test_strict_false_skips_missing_groups(tmp_path):
    pytest.importorskip('h5py')
    import h5py
    with h5py.File(tmp_path / 'e.h5', 'w'):
        pass
    model = L.Classifier(L.Linear(3, 2))
    w = model.predictor.W.array.copy()
    with h5py.File(tmp_path / 'e.h5', 'r') as f:
        hdf5.HDF5Deserializer(f, strict=False).load(model)
    numpy.testing.assert_array_equal(model.predictor.W.array, w)


def test_dict_and_nested_groups(tmp_path):
    h5py = pytest.importorskip('h5py')
    serializers.save_hdf5(tmp_path / 'd.h5', {'a/b': numpy.ones(3), 'c': numpy.asarray(2)})
    with h5py.File(tmp_path / 'd.h5', 'r') as f:
        numpy.testing.assert_array_equal(f['a/b'][()], numpy.ones(3))
        d = hdf5.HDF5Deserializer(f)
        child = d['a']
        assert child.group.name == '/a'
        numpy.testing.assert_array_equal(child('b', None), numpy.ones(3))
        assert d('c', 0) == 2
