"""What only a real GPU can show (marked `gpu`/`multi_gpu`; skipped without CuPy and a GPU,
run by `make gpu-check`/`make test-gpu`): running out of GPU memory for real inside a
training step, and MultiprocessParallelUpdater over two GPUs with NCCL."""
import numpy
import pytest

import minichainer
import minichainer.functions as F
import minichainer.links as L
from minichainer import backend
from minichainer import serializers
from minichainer import training
from minichainer.backends import cuda
from minichainer.datasets import TupleDataset
from minichainer.training import extensions


def _real_cupy():
    if not cuda.available:
        pytest.skip('needs CuPy and a GPU')
    return cuda.cupy


def _dataset(n=24):
    rng = numpy.random.RandomState(0)
    x = rng.randn(n, 4).astype(numpy.float32)
    t = (numpy.abs(x[:, 0] * 2).astype(numpy.int32) % 3).astype(numpy.int32)
    return TupleDataset(x, t)


class _Greedy(minichainer.Chain):
    """A model whose forward asks for more GPU memory than the GPU has, when told to."""

    def __init__(self):
        super().__init__()
        self.rows = None
        with self.init_scope():
            self.l1 = L.Linear(4, 3)

    def forward(self, x):
        h = self.l1(x)
        if self.rows is not None:
            h = F.tile(h, (self.rows, 1))  # a real allocation of rows * batch * 3 floats
        return h


@pytest.mark.gpu
def test_real_out_of_memory_in_a_step_names_the_iteration(tmp_path):
    cupy = _real_cupy()
    device = backend.get_device('@cupy:0')
    free, total = cupy.cuda.runtime.memGetInfo()
    model = L.Classifier(_Greedy())
    opt = minichainer.optimizers.Adam()
    opt.setup(model)
    model.to_device(device)
    greedy = model.predictor

    class Updater(training.updaters.StandardUpdater):
        def update_core(self):
            # the third step asks for twice the GPU's memory in one array
            greedy.rows = int(2 * total // (6 * 3 * 4)) if self.iteration == 2 else None
            super().update_core()

    it = minichainer.iterators.SerialIterator(_dataset(), 6)
    trainer = training.Trainer(Updater(it, opt, device=device), (10, 'iteration'),
                               out=str(tmp_path))
    trainer.extend(extensions.snapshot(), trigger=(1, 'iteration'))
    with pytest.raises(cupy.cuda.memory.OutOfMemoryError) as info:
        trainer.run(show_loop_exception_msg=False)
    assert any('update of iteration 3' in note
               for note in getattr(info.value, '__notes__', []))
    cupy.get_default_memory_pool().free_all_blocks()
    # the snapshot written before is intact and resumes on the CPU
    model2 = L.Classifier(_Greedy())
    opt2 = minichainer.optimizers.Adam()
    opt2.setup(model2)
    resumed = training.Trainer(training.updaters.StandardUpdater(
        minichainer.iterators.SerialIterator(_dataset(), 6), opt2), (4, 'iteration'),
        out=str(tmp_path / 'cpu'))
    serializers.load_npz(str(tmp_path / 'snapshot_iter_2'), resumed)
    resumed.run()
    assert resumed.updater.iteration == 4


@pytest.mark.gpu
@pytest.mark.multi_gpu
def test_multiprocess_parallel_updater_on_two_gpus():
    cupy = _real_cupy()
    if cupy.cuda.runtime.getDeviceCount() < 2:
        pytest.skip('needs two GPUs')
    from minichainer.training.updaters import multiprocess_parallel_updater as mpu
    if not mpu.MultiprocessParallelUpdater.available():
        pytest.skip('needs NCCL (cupy.cuda.nccl)')
    import multiprocessing
    if multiprocessing.get_start_method(allow_none=True) is None:
        multiprocessing.set_start_method('forkserver')
    model = L.Classifier(L.Linear(4, 3))
    opt = minichainer.optimizers.SGD(lr=0.1)
    opt.setup(model)
    data = _dataset()
    iterators = [minichainer.iterators.SerialIterator(part, 6, shuffle=False)
                 for part in minichainer.datasets.split_dataset_n(data, 2)]
    with pytest.warns(UserWarning, match='lr is changed'):
        updater = mpu.MultiprocessParallelUpdater(iterators, opt,
                                                  devices=['@cupy:0', '@cupy:1'])
    try:
        for _ in range(3):
            updater.update()
    finally:
        updater.finalize()
    assert updater.iteration == 3
    assert numpy.isfinite(backend.CpuDevice().send(model.predictor.W.array)).all()
