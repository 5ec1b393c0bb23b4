"""Serializers with models on `@cupy:0` (the CuPy test double in CI, real CuPy with
MINICHAINER_TEST_REAL_CUPY=1): saved from the device with one copy per array, loaded into
device arrays in place, and a snapshot taken on the GPU resumes on the CPU and the
reverse."""
import numpy
import pytest

import minichainer
from minichainer import backend
from minichainer import links as L
from minichainer import serializers
from minichainer import training
from minichainer.datasets import TupleDataset
from minichainer.serializers import hdf5

N_EPOCHS = 4


def _host(array):
    return backend.CpuDevice().send(array)


def _double(device):
    import cupy_double
    return cupy_double if cupy_double.is_double(device.xp) else None


def _model_and_optimizer(device=None, seed=0):
    rng = numpy.random.RandomState(seed)
    model = L.Classifier(minichainer.Sequential(
        L.Linear(4, 6, initialW=rng.randn(6, 4).astype(numpy.float32)),
        minichainer.functions.relu,
        L.Linear(6, 3, initialW=rng.randn(3, 6).astype(numpy.float32))))
    opt = minichainer.optimizers.Adam()
    opt.setup(model)
    if device is not None:
        model.to_device(device)
    return model, opt


def _one_step(model, opt, device=None):
    rng = numpy.random.RandomState(1)
    x = rng.randn(5, 4).astype(numpy.float32)
    t = rng.randint(0, 3, 5).astype(numpy.int32)
    if device is not None:
        x, t = device.send(x), device.send(t)
    opt.update(model, x, t)


def _arrays(model, opt):
    out = {}
    for name, p in model.namedparams():
        out['p' + name] = _host(p.array)
        for key, value in p.update_rule.state.items():
            out['s' + name + '/' + key] = _host(value)
    return out


def _save_load(fmt, path, source, target):
    if fmt == 'npz':
        serializers.save_npz(path, source)
        serializers.load_npz(path, target)
    else:
        serializers.save_hdf5(path, source)
        serializers.load_hdf5(path, target)


FORMATS = ['npz', pytest.param('hdf5', marks=pytest.mark.skipif(
    not hdf5._h5py_available(), reason='h5py is not installed'))]


@pytest.mark.parametrize('fmt', FORMATS)
def test_save_on_cupy_load_on_cpu(cupy_device, tmp_path, fmt):
    gpu_model, gpu_opt = _model_and_optimizer(cupy_device)
    _one_step(gpu_model, gpu_opt, cupy_device)
    cpu_model, cpu_opt = _model_and_optimizer()
    double = _double(cupy_device)
    before = double.host_transfers() if double else 0
    _save_load(fmt, str(tmp_path / 'model'), gpu_model, cpu_model)
    if double:  # one device-to-host copy per parameter, no more
        assert double.host_transfers() - before == len(list(gpu_model.params()))
    _save_load(fmt, str(tmp_path / 'opt'), gpu_opt, cpu_opt)
    for name, p in cpu_model.namedparams():
        assert isinstance(p.array, numpy.ndarray)
        for value in p.update_rule.state.values():
            assert isinstance(value, numpy.ndarray)  # loaded into a fresh rule: host
    expected = _arrays(gpu_model, gpu_opt)
    got = _arrays(cpu_model, cpu_opt)
    assert sorted(expected) == sorted(got)
    for key in expected:
        numpy.testing.assert_array_equal(got[key], expected[key], err_msg=key)
    assert cpu_opt.t == gpu_opt.t == 1


@pytest.mark.parametrize('fmt', FORMATS)
def test_save_on_cpu_load_into_cupy_in_place(cupy_device, tmp_path, fmt):
    cpu_model, cpu_opt = _model_and_optimizer(seed=3)
    _one_step(cpu_model, cpu_opt)
    gpu_model, gpu_opt = _model_and_optimizer(cupy_device)
    _one_step(gpu_model, gpu_opt, cupy_device)  # state exists on the device
    held = {name: p.array for name, p in gpu_model.namedparams()}
    _save_load(fmt, str(tmp_path / 'model'), cpu_model, gpu_model)
    _save_load(fmt, str(tmp_path / 'opt'), cpu_opt, gpu_opt)
    xp = cupy_device.xp
    for name, p in gpu_model.namedparams():
        assert p.array is held[name]  # loaded in place
        assert isinstance(p.array, xp.ndarray)
        for value in p.update_rule.state.values():
            assert isinstance(value, xp.ndarray)
    expected = _arrays(cpu_model, cpu_opt)
    got = _arrays(gpu_model, gpu_opt)
    for key in expected:
        numpy.testing.assert_array_equal(got[key], expected[key], err_msg=key)


def test_load_wrong_shape_into_cupy_names_the_key(cupy_device, tmp_path):
    path = str(tmp_path / 'm.npz')
    serializers.save_npz(path, L.Linear(3, 2))
    link = L.Linear(4, 2)
    link.to_device(cupy_device)
    with pytest.raises(ValueError, match="'W'.*shape"):
        serializers.load_npz(path, link)


def _dataset():
    rng = numpy.random.RandomState(0)
    x = rng.randn(24, 4).astype(numpy.float32)
    t = (numpy.abs(x[:, 0] * 2).astype(numpy.int32) % 3).astype(numpy.int32)
    return TupleDataset(x, t)


def _trainer(out, device, stop, resume=None):
    model, opt = _model_and_optimizer()
    if device is not None:
        model.to_device(device)
    it = minichainer.iterators.SerialIterator(_dataset(), 6)  # shuffles on the host
    updater = training.updaters.StandardUpdater(it, opt, device=device)
    trainer = training.Trainer(updater, (stop, 'epoch'), out=str(out))
    trainer.extend(training.extensions.snapshot(), trigger=(1, 'epoch'))
    trainer.extend(training.extensions.LogReport())
    if resume is not None:
        serializers.load_npz(resume, trainer)
    return trainer, model


@pytest.mark.parametrize('first,second', [('gpu', 'cpu'), ('cpu', 'gpu')],
                         ids=['cupy-to-cpu', 'cpu-to-cupy'])
def test_snapshot_resumes_across_devices(cupy_device, tmp_path, first, second):
    devices = {'gpu': cupy_device, 'cpu': None}
    numpy.random.seed(0)
    straight, straight_model = _trainer(tmp_path / 'straight', devices[first], N_EPOCHS)
    straight.run()
    numpy.random.seed(0)
    part, _ = _trainer(tmp_path / 'part', devices[first], 2)
    part.run()
    snapshot = tmp_path / 'part' / 'snapshot_iter_8'
    resumed, resumed_model = _trainer(tmp_path / 'part', devices[second], N_EPOCHS,
                                      resume=str(snapshot))
    assert resumed.updater.iteration == 8
    resumed.run()
    want_type = cupy_device.xp.ndarray if second == 'gpu' else numpy.ndarray
    # the double computes with NumPy; a GPU's cuBLAS sums in another order
    tol = 1e-5 if _double(cupy_device) else 1e-4
    for (name, p), (_, q) in zip(straight_model.namedparams(),
                                 resumed_model.namedparams()):
        assert isinstance(q.array, want_type)
        numpy.testing.assert_allclose(_host(q.array), _host(p.array), rtol=tol,
                                      atol=tol / 10, err_msg=name)
    assert [e['main/loss'] for e in resumed.get_extension('LogReport').log][-1] == \
        pytest.approx([e['main/loss'] for e in straight.get_extension('LogReport').log][-1],
                      rel=tol)
