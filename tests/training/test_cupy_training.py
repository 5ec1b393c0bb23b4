"""Training on `@cupy:0` (the CuPy test double in CI, real CuPy with
MINICHAINER_TEST_REAL_CUPY=1): a Trainer with Evaluator, LogReport, PrintReport and
snapshots whose steps make no device-to-host copy (only the reporting points copy, once per
report), converters sending batches to the device, ParallelUpdater, statistics
extensions, and out of GPU memory during a step."""
import io
import re

import numpy
import pytest

import minichainer
from minichainer import backend
from minichainer import links as L
from minichainer import serializers
from minichainer import training
from minichainer.backends import cuda
from minichainer.dataset import convert
from minichainer.datasets import TupleDataset
from minichainer.training import extensions


def _host(array):
    return backend.CpuDevice().send(array)


def _double(device):
    import cupy_double
    return cupy_double if cupy_double.is_double(device.xp) else None


def _dataset(n=24):
    rng = numpy.random.RandomState(0)
    x = rng.randn(n, 4).astype(numpy.float32)
    t = (numpy.abs(x[:, 0] * 2).astype(numpy.int32) % 3).astype(numpy.int32)
    return TupleDataset(x, t)


def _model(seed=0):
    rng = numpy.random.RandomState(seed)
    return L.Classifier(minichainer.Sequential(
        L.Linear(4, 6, initialW=rng.randn(6, 4).astype(numpy.float32)),
        minichainer.functions.relu,
        L.Linear(6, 3, initialW=rng.randn(3, 6).astype(numpy.float32))))


def _sgd_trainer_on(device, out, stop):
    """A fresh `_model()` moved to `device` and a Trainer (SGD, batches of 6 from
    `_dataset()` sent to `device`) that stops at `stop`."""
    model = _model()
    opt = minichainer.optimizers.SGD()
    opt.setup(model)
    model.to_device(device)
    it = minichainer.iterators.SerialIterator(_dataset(), 6)
    updater = training.updaters.StandardUpdater(it, opt, device=device)
    return model, training.Trainer(updater, stop, out=str(out))


class _HostCopiesAllowed(training.Extension):
    """Runs `ext` with device-to-host copies allowed, and records how many it made."""

    def __init__(self, ext, device, calls):
        self.ext = ext
        self.device = device
        self.calls = calls
        self.trigger = getattr(ext, 'trigger', (1, 'iteration'))
        self.priority = getattr(ext, 'priority', training.PRIORITY_READER)
        self.name = getattr(ext, 'name', None) or getattr(ext, 'default_name', None)
        ext.name = self.name  # Evaluator prefixes its reports with it ('validation')

    def __getattr__(self, name):  # PrintReport reads LogReport's log through this
        return getattr(self.__dict__['ext'], name)

    def __call__(self, trainer):
        double = _double(self.device)
        before = double.host_transfers() if double else 0
        with cuda.cupyx.allow_synchronize(True):
            self.ext(trainer)
        self.calls.append((trainer.updater.iteration,
                           double.host_transfers() - before if double else None))

    def initialize(self, trainer):
        if hasattr(self.ext, 'initialize'):
            self.ext.initialize(trainer)

    def finalize(self):
        if hasattr(self.ext, 'finalize'):
            self.ext.finalize()

    def serialize(self, serializer):
        self.ext.serialize(serializer)


def _train(out, device, guard=False, calls=None):
    model = _model()
    opt = minichainer.optimizers.Adam()
    opt.setup(model)
    if device is not None:
        model.to_device(device)
    train = minichainer.iterators.SerialIterator(_dataset(), 6, shuffle=False)
    test = minichainer.iterators.SerialIterator(_dataset(12), 6, repeat=False,
                                                shuffle=False)
    updater = training.updaters.StandardUpdater(train, opt, device=device)
    trainer = training.Trainer(updater, (3, 'epoch'), out=str(out))
    printed = io.StringIO()
    exts = [(extensions.Evaluator(test, model, device=device), 'eval'),
            (extensions.LogReport(), 'log'),
            (extensions.PrintReport(['epoch', 'main/loss', 'validation/main/loss',
                                     'main/accuracy']), 'print'),
            (extensions.snapshot(), 'snapshot')]
    for ext, key in exts:
        if key == 'print':
            ext._out = printed
        if guard:
            ext = _HostCopiesAllowed(ext, device, calls.setdefault(key, []))
        trainer.extend(ext, trigger=(1, 'epoch') if key in ('eval', 'snapshot') else None)
    if guard:
        with cuda.cupyx.allow_synchronize(False):  # every step: no device-to-host copy
            trainer.run()
    else:
        trainer.run()
    return trainer, model, printed.getvalue()


def test_trainer_on_cupy_copies_to_the_host_only_when_reporting(cupy_device, tmp_path):
    calls = {}
    trainer, model, printed = _train(tmp_path / 'gpu', cupy_device, guard=True,
                                     calls=calls)
    cpu_trainer, cpu_model, cpu_printed = _train(tmp_path / 'cpu', None)
    assert trainer.updater.iteration == 12
    assert isinstance(model.predictor[0].W.array, cupy_device.xp.ndarray)
    log = trainer.get_extension('LogReport').log
    cpu_log = cpu_trainer.get_extension('LogReport').log
    assert [e['iteration'] for e in log] == [4, 8, 12]
    tol = 1e-5 if _double(cupy_device) else 1e-4  # a GPU sums in another order
    for entry, cpu_entry in zip(log, cpu_log):
        for key in ('main/loss', 'main/accuracy', 'validation/main/loss',
                    'validation/main/accuracy'):
            assert type(entry[key]) is float
            assert entry[key] == pytest.approx(cpu_entry[key], rel=tol), key
    # PrintReport prints the same table as on the CPU (values to 3 decimals; on a real
    # GPU only its shape, since the last digits may differ)
    def cells(text):
        text = re.sub(r'\x1b\[[0-9;]*[A-Za-z]', '', text)
        return [re.findall(r'[a-z/]+|\d+(?:\.\d{0,3})?', line) for line in
                text.splitlines()]
    if _double(cupy_device):
        assert cells(printed) == cells(cpu_printed)
    else:
        assert [len(row) for row in cells(printed)] == [len(row)
                                                        for row in cells(cpu_printed)]
    if _double(cupy_device):
        # LogReport: nothing copied while accumulating, ONE copy for all the values of
        # an epoch's report; Evaluator: one copy for its means; PrintReport: none
        assert [n for _, n in calls['log']] == [0, 0, 0, 1] * 3
        assert [n for _, n in calls['eval']] == [1, 1, 1]
        assert all(n == 0 for _, n in calls['print'])
    snapshot = tmp_path / 'gpu' / 'snapshot_iter_12'
    fresh = _model(seed=5)
    serializers.load_npz(str(snapshot), fresh, path='updater/model:main/')
    for (name, p), (_, q) in zip(model.namedparams(), fresh.namedparams()):
        numpy.testing.assert_array_equal(q.array, _host(p.array), err_msg=name)


def _out_of_memory(xp):
    """A context in which every new device allocation raises CuPy's OutOfMemoryError."""
    import contextlib
    import cupy_double
    if cupy_double.is_double(xp):
        return cupy_double.out_of_memory()

    @contextlib.contextmanager
    def real():
        def fail(size):
            raise xp.cuda.memory.OutOfMemoryError(size, 0)
        xp.cuda.set_allocator(fail)
        try:
            yield
        finally:
            xp.cuda.set_allocator(xp.get_default_memory_pool().malloc)
    return real()


def test_out_of_memory_in_a_step_on_cupy_names_the_iteration(cupy_device, tmp_path):
    xp = cupy_device.xp

    class Updater(training.updaters.StandardUpdater):
        def update_core(self):
            if self.iteration == 2:
                with _out_of_memory(xp):
                    super().update_core()
            else:
                super().update_core()

    model = _model()
    opt = minichainer.optimizers.Adam()
    opt.setup(model)
    model.to_device(cupy_device)
    it = minichainer.iterators.SerialIterator(_dataset(), 6)
    trainer = training.Trainer(Updater(it, opt, device=cupy_device), (10, 'iteration'),
                               out=str(tmp_path))
    trainer.extend(extensions.snapshot(), trigger=(1, 'iteration'))
    with pytest.raises(xp.cuda.memory.OutOfMemoryError) as info:
        trainer.run(show_loop_exception_msg=False)
    assert type(info.value) is xp.cuda.memory.OutOfMemoryError  # CuPy's own error
    assert any('update of iteration 3' in note
               for note in getattr(info.value, '__notes__', []))
    assert sorted(p.name for p in tmp_path.glob('snapshot_iter_*')) == \
        ['snapshot_iter_1', 'snapshot_iter_2']
    # the snapshot written before the failure is intact: it resumes on the CPU
    cpu_model = _model(seed=4)
    cpu_opt = minichainer.optimizers.Adam()
    cpu_opt.setup(cpu_model)
    resumed = training.Trainer(training.updaters.StandardUpdater(
        minichainer.iterators.SerialIterator(_dataset(), 6), cpu_opt), (4, 'iteration'),
        out=str(tmp_path / 'resumed'))
    serializers.load_npz(str(tmp_path / 'snapshot_iter_2'), resumed)
    assert resumed.updater.iteration == 2
    resumed.run()
    assert resumed.updater.iteration == 4


def test_concat_examples_to_cupy(cupy_device):
    xp = cupy_device.xp
    batch = [(numpy.full(3, i, numpy.float32), numpy.int32(i)) for i in range(4)]
    with cuda.cupyx.allow_synchronize(False):
        x, t = convert.concat_examples(batch, cupy_device)
    assert isinstance(x, xp.ndarray) and isinstance(t, xp.ndarray)
    numpy.testing.assert_array_equal(_host(x)[:, 0], [0, 1, 2, 3])
    # examples already on the device are stacked there
    on_device = [tuple(cupy_device.send(a) for a in example) for example in batch]
    x2, _ = convert.concat_examples(on_device, None)
    assert isinstance(x2, xp.ndarray)
    numpy.testing.assert_array_equal(_host(x2), _host(x))
    d = convert.concat_examples([{'a': numpy.ones(2, numpy.float32)}] * 3, '@cupy:0')
    assert isinstance(d['a'], xp.ndarray) and d['a'].shape == (3, 2)
    padded = convert.concat_examples([numpy.ones(2, 'f'), numpy.ones(3, 'f')],
                                     cupy_device, padding=-1)
    numpy.testing.assert_array_equal(_host(padded), [[1, 1, -1], [1, 1, 1]])


def test_old_style_converter_gets_the_gpu_id(cupy_device):
    seen = []

    def converter(batch, device=None):
        seen.append(device)
        return convert.concat_examples(batch, device)

    out = convert.call_converter(converter, [numpy.ones(2, 'f')] * 2, cupy_device)
    assert seen == [0]
    assert isinstance(out, cupy_device.xp.ndarray)


@pytest.mark.parametrize('second', ['@cupy:0', '@cupy:1'])
def test_parallel_updater_on_cupy_equals_cpu(cupy_device, second, tmp_path):
    double = _double(cupy_device)
    if second == '@cupy:1':
        if double is not None:
            double.set_device_count(2)
            cuda.resolve_cupy()  # the backend reads the number of GPUs again
        elif cuda.cupy.cuda.runtime.getDeviceCount() < 2:
            pytest.skip('needs two GPUs')

    def run(devices, out):
        model = _model()
        opt = minichainer.optimizers.SGD(lr=0.1)
        opt.setup(model)
        it = minichainer.iterators.SerialIterator(_dataset(), 6, shuffle=False)
        updater = training.updaters.ParallelUpdater(it, opt, devices=devices)
        trainer = training.Trainer(updater, (3, 'iteration'), out=str(out))
        # both copies report (main/..., second/...), from their own devices
        trainer.extend(extensions.LogReport(trigger=(3, 'iteration')))
        trainer.run()
        return model, trainer.get_extension('LogReport').log[-1]

    cpu, cpu_entry = run({'main': -1, 'second': -1}, tmp_path / 'cpu')
    gpu, entry = run({'main': '@cupy:0', 'second': second}, tmp_path / 'gpu')
    tol = 1e-5 if double else 1e-4
    for (name, p), (_, q) in zip(cpu.namedparams(), gpu.namedparams()):
        assert isinstance(q.array, cupy_device.xp.ndarray)
        numpy.testing.assert_allclose(_host(q.array), p.array, rtol=tol, atol=tol / 10,
                                      err_msg=name)
    for key in ('main/loss', 'second/loss', 'main/accuracy', 'second/accuracy'):
        assert entry[key] == pytest.approx(cpu_entry[key], rel=tol), key


def test_statistics_extensions_on_cupy(cupy_device, tmp_path):
    model, trainer = _sgd_trainer_on(cupy_device, tmp_path, (2, 'iteration'))
    trainer.extend(extensions.ParameterStatistics(model, trigger=(1, 'iteration')))
    trainer.extend(extensions.LogReport(trigger=(1, 'iteration')))
    trainer.run()
    entry = trainer.get_extension('LogReport').log[-1]
    keys = [k for k in entry if '/W/data/' in k]
    assert keys, sorted(entry)
    assert all(numpy.isfinite(entry[k]) for k in keys)


def test_tensorboard_report_takes_device_scalars_and_histograms(cupy_device, tmp_path):
    pytest.importorskip('tensorboardX')
    accumulator = pytest.importorskip(
        'tensorboard.backend.event_processing.event_accumulator')
    model, trainer = _sgd_trainer_on(cupy_device, tmp_path, (2, 'epoch'))
    trainer.extend(extensions.TensorBoardReport(histograms=model))
    trainer.run()
    acc = accumulator.EventAccumulator(str(tmp_path / 'tb'),
                                       size_guidance={'scalars': 0, 'histograms': 0})
    acc.Reload()
    losses = [e.value for e in acc.Scalars('main/loss')]
    assert len(losses) == 2 and all(numpy.isfinite(losses))
    assert any(tag.endswith('/W/data') for tag in acc.Tags()['histograms'])


def test_mixed16_training_with_loss_scaling_on_cupy_equals_cpu(cupy_device):
    def run(device):
        with minichainer.using_config('dtype', minichainer.mixed16):
            model = _model()
            for p in model.params():
                p.array = p.array.astype(numpy.float16)
        opt = minichainer.optimizers.SGD(lr=0.1)
        opt.setup(model)
        opt.use_fp32_update()
        opt.loss_scaling()
        if device is not None:
            model.to_device(device)
        it = minichainer.iterators.SerialIterator(_dataset(), 6, shuffle=False)
        updater = training.updaters.StandardUpdater(it, opt, device=device,
                                                    converter=_half_converter)
        with minichainer.using_config('dtype', minichainer.mixed16):
            for _ in range(4):
                updater.update()
        return model, opt

    cpu, cpu_opt = run(None)
    gpu, gpu_opt = run(cupy_device)
    assert gpu_opt._loss_scale == cpu_opt._loss_scale > 1
    tol = 2e-3  # float16: the device path may round an intermediate differently (1 ulp)
    for (name, p), (_, q) in zip(cpu.namedparams(), gpu.namedparams()):
        assert q.array.dtype == numpy.float16
        assert isinstance(q.array, cupy_device.xp.ndarray)
        numpy.testing.assert_allclose(_host(q.array), p.array, rtol=tol, atol=tol,
                                      err_msg=name)


@convert.converter()
def _half_converter(batch, device=None):
    x, t = convert.concat_examples(batch, device)
    return x.astype(numpy.float16), t


def test_multiprocess_updater_gather_and_scatter_on_cupy(cupy_device):
    from minichainer.training.updaters import multiprocess_parallel_updater as mpu
    model = _model()
    model.to_device(cupy_device)
    for p in model.params():
        p.grad = cupy_device.xp.ones_like(p.array) * 2
    flat = mpu.gather_grads(model)
    size, _ = mpu.size_num_grads(model)
    assert isinstance(flat, cupy_device.xp.ndarray) and flat.shape == (size,)
    assert flat.dtype == numpy.float32
    numpy.testing.assert_array_equal(_host(flat), numpy.full(size, 2, numpy.float32))
    params = mpu.gather_params(model)
    expected = numpy.concatenate([_host(p.array).ravel()
                                  for _, p in sorted(model.namedparams())])
    numpy.testing.assert_array_equal(_host(params), expected)
    mpu.scatter_params(model, params * 0 + 1)
    mpu.scatter_grads(model, flat * 0)
    for p in model.params():
        numpy.testing.assert_array_equal(_host(p.array), numpy.ones(p.shape))
        numpy.testing.assert_array_equal(_host(p.grad), numpy.zeros(p.shape))
    with pytest.raises(ValueError, match=r'shape \({},\)'.format(size)):
        mpu.scatter_grads(model, flat[:-1])
    if _double(cupy_device):
        assert mpu.MultiprocessParallelUpdater.available() is False  # no NCCL there


def test_variable_statistics_plot_on_cupy(cupy_device, tmp_path):
    pytest.importorskip('matplotlib')
    model, trainer = _sgd_trainer_on(cupy_device, tmp_path, (2, 'iteration'))
    link = model.predictor[0]
    ext = extensions.VariableStatisticsPlot(link, filename='stats.png',
                                            trigger=(2, 'iteration'))
    trainer.extend(ext)
    trainer.run()
    assert (tmp_path / 'stats.png').read_bytes()[:4] == b'\x89PNG'
    _, data = ext._samples.get_data()
    w = numpy.concatenate([_host(link.W.array).ravel(), _host(link.b.array).ravel()])
    assert data[-1, 0, 0] == pytest.approx(w.mean(), rel=1e-5)
    assert data[-1, 0, -1] == pytest.approx(w.max(), rel=1e-5)


def test_fail_on_nonnumber_on_cupy_one_host_copy(cupy_device, tmp_path):
    model, trainer = _sgd_trainer_on(cupy_device, tmp_path, (1, 'iteration'))
    ext = extensions.FailOnNonNumber(check_grad=True)
    trainer.updater.update()
    double = _double(cupy_device)
    before = double.host_transfers() if double else 0
    ext(trainer)  # all finite
    if double:
        assert double.host_transfers() - before == 1  # every flag in one copy
    model.predictor[2].b.array[1] = numpy.nan
    with pytest.raises(RuntimeError, match=r"parameter '/predictor/\d/b' holds NaN"):
        ext(trainer)


def test_loop_errors_are_noted_with_their_iteration(tmp_path):
    # CPU; the same note the out-of-memory test above reads
    model = _model()
    opt = minichainer.optimizers.SGD()
    opt.setup(model)
    it = minichainer.iterators.SerialIterator(_dataset(), 6)
    trainer = training.Trainer(training.updaters.StandardUpdater(it, opt),
                               (10, 'iteration'), out=str(tmp_path))

    @training.make_extension(trigger=(1, 'iteration'))
    def fail_at_4(trainer):
        if trainer.updater.iteration == 4:
            raise ValueError('from an extension')

    trainer.extend(fail_at_4)
    with pytest.raises(ValueError) as info:
        trainer.run(show_loop_exception_msg=False)
    assert info.value.__notes__ == [
        'minichainer Trainer: raised by an extension at iteration 4']
