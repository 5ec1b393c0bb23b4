"""MPI scenarios on CuPy arrays (the CuPy test double), run by test_cupy_mpi.py under
``mpiexec -n 2 python _cupy_scenarios.py``: every rank asserts; rank 0 prints ``OK NAME``.

The communicators are host-memory MPI here (MPICH without CUDA): device arrays travel
through the host and come back on the device.
"""
import os
import sys

import numpy

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.append(os.path.dirname(HERE))  # tests/, for the double
import cupy_double  # noqa: E402

_INSTALLED = cupy_double.installed()
_INSTALLED.__enter__()

import minichainer  # noqa: E402
import minichainer.distributed as mn  # noqa: E402
import minichainer.links as L  # noqa: E402
from minichainer import backend  # noqa: E402
from minichainer.distributed.communicators import mpi_communicator_base  # noqa: E402

DEVICE = backend.get_device('@cupy:0')
XP = DEVICE.xp
CPU = backend.CpuDevice()


def _on_device(x):
    assert isinstance(x, XP.ndarray), type(x)
    return CPU.send(x)


def scenario_arrays(comm):
    r = comm.rank
    x = DEVICE.send(numpy.arange(6, dtype=numpy.float32).reshape(2, 3) * (r + 1))
    total = _on_device(comm.allreduce(x))
    numpy.testing.assert_array_equal(total, numpy.arange(6).reshape(2, 3) * 3)
    half = DEVICE.send(numpy.full(3, r, numpy.float16))
    assert _on_device(comm.allreduce(half)).dtype == numpy.float16
    got = _on_device(comm.bcast(x if r == 0 else None, root=0))
    numpy.testing.assert_array_equal(got, numpy.arange(6).reshape(2, 3))
    gathered = comm.allgather(DEVICE.send(numpy.full(2, r, numpy.int32)))
    assert [list(_on_device(g)) for g in gathered] == [[0, 0], [1, 1]]
    parts = comm.gather(DEVICE.send(numpy.full(1, r, numpy.float64)), root=0)
    if r == 0:
        assert [float(_on_device(p)[0]) for p in parts] == [0.0, 1.0]
    else:
        assert parts is None
    piece = comm.scatter(DEVICE.send(numpy.arange(4, dtype=numpy.float32).reshape(2, 2))
                         if r == 0 else None, root=0)
    numpy.testing.assert_array_equal(_on_device(piece), [2 * r, 2 * r + 1])
    back = comm.alltoall([DEVICE.send(numpy.full(2, 10 * r + k, numpy.float32))
                          for k in range(2)])
    assert [list(_on_device(b)) for b in back] == [[r, r], [10 + r, 10 + r]]
    if r == 0:
        comm.send((x, DEVICE.send(numpy.ones(2, numpy.int64))), dest=1, tag=3)
    else:
        a, b = comm.recv(source=0, tag=3)
        numpy.testing.assert_array_equal(_on_device(a), numpy.arange(6).reshape(2, 3))
        numpy.testing.assert_array_equal(_on_device(b), [1, 1])
    # host arrays stay host arrays
    assert isinstance(comm.allreduce(numpy.ones(2, numpy.float32)), numpy.ndarray)


def _model(comm, seed):
    numpy.random.seed(seed)
    model = L.Classifier(minichainer.Sequential(L.Linear(4, 5), L.Linear(5, 3)))
    model.to_device(DEVICE)
    return model


def _mean_grad(comm, shared_memory):
    model = _model(comm, 0)
    comm.shared_memory = shared_memory
    grads = {}
    for name, p in model.namedparams():
        g = numpy.random.RandomState(comm.rank * 100 + len(name)).randn(*p.shape)
        grads[name] = g.astype(numpy.float32)
        p.grad = DEVICE.send(grads[name])
    before = cupy_double.host_transfers()
    comm.multi_node_mean_grad(model)
    # one device-to-host copy for the whole float32 model (staged through the host)
    assert cupy_double.host_transfers() - before == 1, cupy_double.host_transfers() - before
    all_grads = comm.mpi_comm.allgather(grads)
    for name, p in model.namedparams():
        want = (all_grads[0][name] + all_grads[1][name]) / 2
        numpy.testing.assert_allclose(_on_device(p.grad), want, rtol=1e-6, atol=1e-6)


def scenario_mean_grad_shared_memory(comm):
    _mean_grad(comm, True)


def scenario_mean_grad_allreduce(comm):
    _mean_grad(comm, False)


def scenario_bcast_data(comm):
    model = _model(comm, 10 + comm.rank)  # different weights on each rank
    comm.bcast_data(model)
    mine = {name: _on_device(p.array) for name, p in model.namedparams()}
    theirs = comm.mpi_comm.bcast(mine, root=0)
    for name in mine:
        numpy.testing.assert_array_equal(mine[name], theirs[name])


def scenario_multi_node_optimizer(comm):
    model = _model(comm, 20 + comm.rank)
    opt = mn.create_multi_node_optimizer(minichainer.optimizers.SGD(lr=0.1), comm)
    opt.setup(model)
    rs = numpy.random.RandomState(comm.rank)
    x = DEVICE.send(rs.randn(6, 4).astype(numpy.float32))
    t = DEVICE.send(rs.randint(0, 3, 6).astype(numpy.int32))
    for _ in range(3):
        opt.update(model, x, t)
    mine = {name: _on_device(p.array) for name, p in model.namedparams()}
    theirs = comm.mpi_comm.bcast(mine, root=0)
    for name in mine:
        numpy.testing.assert_allclose(mine[name], theirs[name], rtol=1e-6)


def scenario_functions(comm):
    # differentiable communication of device Variables: forward and backward on the GPU
    r = comm.rank
    x = minichainer.Variable(DEVICE.send(numpy.full(3, r + 1, numpy.float32)))
    ys = mn.functions.allgather(comm, x)
    assert [list(_on_device(y.array)) for y in ys] == [[1, 1, 1], [2, 2, 2]]
    loss = sum(minichainer.functions.sum(y * (i + 1)) for i, y in enumerate(ys))
    loss.backward()
    # the gradient of x: its copy ys[r] weighs r + 1 in the loss of both ranks
    numpy.testing.assert_array_equal(_on_device(x.grad), [2 * (r + 1)] * 3)
    if r == 0:
        x.grad = None
        delegate = mn.functions.send(x * 2, comm, rank=1)
        assert isinstance(delegate.array, XP.ndarray)
        delegate.backward()  # receives d(sum y)/dy = 1 from rank 1
        numpy.testing.assert_array_equal(_on_device(x.grad), [2, 2, 2])
    else:
        y = mn.functions.recv(comm, rank=0)
        numpy.testing.assert_array_equal(_on_device(y.array), [2, 2, 2])
        minichainer.functions.sum(y).backward()


def scenario_allreduce_persistent(comm):
    bn = L.BatchNormalization(3)
    bn.to_device(DEVICE)
    bn.avg_mean[...] = comm.rank + 1.0
    mn.extensions.AllreducePersistent(bn, comm)()
    assert isinstance(bn.avg_mean, XP.ndarray)
    numpy.testing.assert_array_equal(_on_device(bn.avg_mean), [1.5] * 3)


def scenario_multi_node_batch_normalization(comm):
    # statistics over both ranks' batches, on the device, equal to the CPU's
    rs = numpy.random.RandomState(comm.rank)
    x = rs.randn(4, 3, 2).astype(numpy.float32)
    outs = []
    for device in (None, DEVICE):
        bn = mn.MultiNodeBatchNormalization(3, comm)
        xv = minichainer.Variable(x.copy() if device is None else device.send(x))
        if device is not None:
            bn.to_device(device)
        y = bn(xv)
        minichainer.functions.sum(y * y).backward()
        outs.append([CPU.send(a) for a in (y.array, xv.grad, bn.gamma.grad,
                                           bn.avg_mean, bn.avg_var)])
        if device is not None:
            assert isinstance(y.array, XP.ndarray) and isinstance(xv.grad, XP.ndarray)
    for cpu, gpu in zip(*outs):
        numpy.testing.assert_allclose(gpu, cpu, rtol=1e-5, atol=1e-6)


def scenario_not_cuda_aware(comm):
    # this MPI (MPICH without --with-cuda) does not read device memory: staging is used
    assert mpi_communicator_base.mpi_is_cuda_aware(comm._MPI) is False
    assert comm.cuda_aware is False


def main():
    from _scenarios import run_scenarios  # this folder is the script's: on sys.path
    run_scenarios(globals(), sys.argv[1:])


if __name__ == '__main__':
    main()
