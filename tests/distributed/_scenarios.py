"""MPI programs run by tests/distributed/test_*.py under ``mpiexec -n 2``.

Usage: ``mpiexec -n 2 python _scenarios.py OUTDIR NAME [NAME ...]``. Each scenario runs on
every rank; it asserts what one rank can check and writes ``OUTDIR/NAME.RANK.json`` with
values that the pytest side compares across ranks. A failing assertion on any rank aborts
the whole job (global except hook), so pytest sees a non-zero exit.
"""
import json
import os
import sys

import numpy

import minichainer
import minichainer.functions as F
import minichainer.links as L
import minichainer.distributed as mn
from minichainer import optimizers
from minichainer import training
from minichainer.training import extensions

OUT = None


def dump(name, comm, value):
    with open(os.path.join(OUT, '{}.{}.json'.format(name, comm.rank)), 'w') as f:
        json.dump(value, f)


def params_of(model):
    return {name: p.array.tolist() for name, p in sorted(model.namedparams())}


class MLP(minichainer.Chain):
    def __init__(self, n_in=12, n_hidden=16, n_out=4, bn=None):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(n_in, n_hidden)
            self.l2 = L.Linear(n_hidden, n_out)
            if bn is not None:
                self.bn = bn
        self.has_bn = bn is not None

    def forward(self, x):
        h = self.l1(x)
        if self.has_bn:
            h = self.bn(h)
        return self.l2(F.relu(h))


def _data(n=100, n_in=12, n_out=4, seed=0):
    rs = numpy.random.RandomState(seed)
    x = rs.standard_normal((n, n_in)).astype(numpy.float32)
    t = rs.randint(0, n_out, size=n).astype(numpy.int32)
    return x, t


def _equivalence(comm, make_opt, bn, n_steps=5):
    """2 ranks with half a batch each == 1 process with the whole batch of 100."""
    numpy.random.seed(100 + comm.rank)  # different initial weights on each rank
    if bn:
        model = L.Classifier(MLP(bn=mn.MultiNodeBatchNormalization(16, comm)))
    else:
        model = L.Classifier(MLP())
    opt = mn.create_multi_node_optimizer(make_opt(), comm).setup(model)
    x, t = _data()
    half = len(x) // comm.size
    xs = x[comm.rank * half:(comm.rank + 1) * half]
    ts = t[comm.rank * half:(comm.rank + 1) * half]
    opt.update(model, xs, ts)  # first call: broadcast of rank 0's parameters only
    assert opt.t == 0, opt.t
    ref = model.copy(mode='copy')
    if bn:
        ref.predictor.bn = L.BatchNormalization(16)
        ref.predictor.bn.copyparams(model.predictor.bn)
    ref_opt = make_opt().setup(ref)
    max_err = 0.
    for step in range(n_steps):
        opt.update(model, xs, ts)
        ref_opt.update(ref, x, t)
        for (name, p), (_, q) in zip(sorted(model.namedparams()),
                                     sorted(ref.namedparams())):
            numpy.testing.assert_allclose(p.array, q.array, rtol=1e-4, atol=1e-5,
                                          err_msg='step {} {}'.format(step, name))
            max_err = max(max_err, float(numpy.abs(p.array - q.array).max()))
        if bn:
            numpy.testing.assert_allclose(model.predictor.bn.avg_mean,
                                          ref.predictor.bn.avg_mean, rtol=1e-4, atol=1e-5)
            numpy.testing.assert_allclose(model.predictor.bn.avg_var,
                                          ref.predictor.bn.avg_var, rtol=1e-4, atol=1e-5)
    assert opt.t == n_steps
    return {'params': params_of(model), 'max_err': max_err}


def scenario_equivalence(comm):
    out = {}
    out['sgd'] = _equivalence(comm, lambda: optimizers.SGD(lr=0.1), bn=False)
    out['sgd_allreduce'] = _equivalence(
        mn.create_communicator('naive', shared_memory=False),
        lambda: optimizers.SGD(lr=0.1), bn=False)
    out['adam'] = _equivalence(comm, optimizers.Adam, bn=False)
    out['momentum_bn'] = _equivalence(
        comm, lambda: optimizers.MomentumSGD(lr=0.05), bn=True)
    dump('equivalence', comm, out)


class _CountingComm:
    """Proxy of an mpi4py communicator that counts the calls by name."""

    def __init__(self, inner):
        self.inner = inner
        self.calls = {}

    def __getattr__(self, name):
        attr = getattr(self.inner, name)
        if not callable(attr):
            return attr
        calls = self.calls

        def wrapper(*args, **kwargs):
            calls[name] = calls.get(name, 0) + 1
            return attr(*args, **kwargs)
        return wrapper


def scenario_packed(comm):
    """Without shared memory: one Allreduce per step for the whole model, reused
    buffer; buckets bound size."""
    numpy.random.seed(0)
    model = L.Classifier(MLP(n_in=64, n_hidden=100, n_out=10))
    x = numpy.random.standard_normal((8, 64)).astype(numpy.float32) + comm.rank
    t = numpy.arange(8, dtype=numpy.int32)
    counting = _CountingComm(comm.mpi_comm)
    c = mn.create_communicator('flat', shared_memory=False)
    c.mpi_comm = counting
    opt = mn.create_multi_node_optimizer(optimizers.SGD(), c).setup(model)
    opt.update(model, x, t)
    assert counting.calls.get('Allreduce', 0) == 0, counting.calls
    opt.update(model, x, t)
    assert counting.calls['Allreduce'] == 1, counting.calls
    flat = c._grad_layout.groups[0].flat
    opt.update(model, x, t)
    assert counting.calls['Allreduce'] == 2, counting.calls
    assert c._grad_layout.groups[0].flat is flat  # reused, not reallocated
    n_params = sum(p.size for p in model.params())
    assert flat.size == n_params, (flat.size, n_params)

    # Small buckets: ceil(bytes / bucket_bytes) calls, same averaged gradients.
    model.cleargrads()
    model(x, t).backward()
    grads = {n: p.grad.copy() for n, p in model.namedparams()}
    small = mn.create_communicator('naive', bucket_bytes=4096, shared_memory=False)
    small_counting = _CountingComm(comm.mpi_comm)
    small.mpi_comm = small_counting
    small.multi_node_mean_grad(model)
    expected_calls = -(-n_params * 4 // 4096)
    assert small_counting.calls['Allreduce'] == expected_calls, small_counting.calls
    for n, p in model.namedparams():
        g_all = comm.allgather(grads[n])
        numpy.testing.assert_allclose(p.grad, sum(g_all) / comm.size, rtol=1e-6)

    # zero_fill: an unused (None) gradient takes part as zeros.
    model.cleargrads()
    model.predictor.l2.W.grad = numpy.full_like(model.predictor.l2.W.array, comm.rank + 1)
    comm.multi_node_mean_grad(model, zero_fill=True)
    assert numpy.all(model.predictor.l1.W.grad == 0)
    assert numpy.allclose(model.predictor.l2.W.grad, 1.5)
    # zero_fill=False: parameters without a gradient are skipped (stay None).
    model.cleargrads()
    model.predictor.l2.W.grad = numpy.full_like(model.predictor.l2.W.array, comm.rank + 1)
    comm.multi_node_mean_grad(model, zero_fill=False)
    assert model.predictor.l1.W.grad is None and model.predictor.l2.b.grad is None
    assert numpy.allclose(model.predictor.l2.W.grad, 1.5)

    # float16 parameters travel as float32 and come back as float16.
    h = L.Linear(3, 2)
    h.to_device = None
    h.W.array = h.W.array.astype(numpy.float16)
    h.W.grad = numpy.full((2, 3), comm.rank, numpy.float16)
    h.b.grad = numpy.full((2,), 2 * comm.rank, numpy.float32)
    comm.multi_node_mean_grad(h)
    assert h.W.grad.dtype == numpy.float16 and numpy.all(h.W.grad == 0.5)
    assert numpy.all(h.b.grad == 1.0)

    # ChainerMN's older names.
    import warnings
    h.b.grad = numpy.full((2,), 2. * comm.rank, numpy.float32)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter('always')
        comm.allreduce_grad(h)
    assert any(issubclass(x.category, DeprecationWarning) for x in w)
    assert numpy.all(h.b.grad == 1.0)
    h.b.array[...] = comm.rank
    comm.broadcast_data(h)
    assert numpy.all(h.b.array == 0)
    dump('packed', comm, {'ok': True})


def _set_rank_grads(model, comm, seed):
    """Give every parameter a rank-dependent gradient; return the expected mean."""
    expected = {}
    for name, p in sorted(model.namedparams()):
        rs = numpy.random.RandomState([seed, comm.rank, p.size])
        p.grad = rs.standard_normal(p.shape).astype(p.dtype)
        everyone = comm.mpi_comm.allgather(p.grad)
        expected[name] = sum(g.astype(numpy.float64) for g in everyone) / comm.size
    return expected


def _check_mean(model, expected, what):
    for name, p in sorted(model.namedparams()):
        numpy.testing.assert_allclose(p.grad, expected[name], rtol=1e-5, atol=1e-6,
                                      err_msg='{}: {}'.format(what, name))


def scenario_shared_memory(comm):
    """Two ranks on one host: gradients are summed in an MPI shared-memory window."""
    from minichainer.distributed.communicators import _node_shared
    numpy.random.seed(0)
    model = MLP(n_in=64, n_hidden=100, n_out=10)
    c = mn.create_communicator('naive')
    counting = _CountingComm(c.mpi_comm)
    c.mpi_comm = counting
    expected = _set_rank_grads(model, comm, 1)
    c.multi_node_mean_grad(model)
    group = c._grad_layout.groups[0]
    assert group.shared is not None and c._topology.inter is None
    assert counting.calls.get('Allreduce', 0) == 0, counting.calls
    _check_mean(model, expected, 'first sum')
    flat = group.flat
    for p in model.params():
        assert numpy.shares_memory(p.grad, flat)
    first = {n: p.grad.tolist() for n, p in sorted(model.namedparams())}

    # A rank may modify its averaged gradients in place (optimizer hooks do): the
    # other rank's gradients do not change.
    comm.mpi_comm.Barrier()
    if comm.rank == 0:
        for p in model.params():
            p.grad *= 100
    comm.mpi_comm.Barrier()
    if comm.rank == 1:
        _check_mean(model, expected, 'after rank 0 scaled its own')

    # The next step reuses the same window.
    expected = _set_rank_grads(model, comm, 2)
    c.multi_node_mean_grad(model)
    assert c._grad_layout.groups[0].flat is flat
    _check_mean(model, expected, 'second sum')

    # More parameter sets than the cache holds: evicted windows are freed, and the
    # gradients that were views of them get their own copies first.
    links = [L.Linear(3, 2 + i) for i in range(10)]
    sums = []
    for i, link in enumerate(links):
        exp = _set_rank_grads(link, comm, 10 + i)
        c.multi_node_mean_grad(link)
        sums.append(exp)
    assert len(c._grad_layouts) == 8
    for link, exp in zip(links, sums):
        _check_mean(link, exp, 'after eviction')

    # finalize() gives the model private copies of its gradients.
    c.finalize()
    _check_mean(model, expected, 'after finalize')
    for link, exp in zip(links, sums):
        _check_mean(link, exp, 'after finalize')

    # An MPI that cannot allocate the window: every rank falls back to Allreduce.
    class Refused(_node_shared.SharedSum):
        def __init__(self, *args):
            raise NotImplementedError('no shared windows here')
    saved = _node_shared.SharedSum
    _node_shared.SharedSum = Refused
    try:
        c2 = mn.create_communicator('naive')
        expected = _set_rank_grads(model, comm, 3)
        c2.multi_node_mean_grad(model)
        assert c2._topology is None and c2._grad_layout.groups[0].shared is None
        _check_mean(model, expected, 'fallback')
    finally:
        _node_shared.SharedSum = saved

    # No room in /dev/shm on one rank: every rank uses private buffers and Allreduce.
    saved = _node_shared.has_room
    _node_shared.has_room = lambda nbytes: comm.rank == 0
    try:
        c3 = mn.create_communicator('naive')
        expected = _set_rank_grads(model, comm, 5)
        c3.multi_node_mean_grad(model)
        assert c3._grad_layout.groups[0].shared is None
        _check_mean(model, expected, 'no room')
    finally:
        _node_shared.has_room = saved
    dump('shared_memory', comm, {'first': first})


def scenario_small_shm(comm):
    """Run with a small /dev/shm: a model that does not fit falls back to Allreduce
    instead of dying of SIGBUS; a small one still uses the window."""
    c = mn.create_communicator('naive')
    small = L.Linear(10, 10)
    expected = _set_rank_grads(small, comm, 6)
    c.multi_node_mean_grad(small)
    assert c._grad_layout.groups[0].shared is not None
    _check_mean(small, expected, 'small model')
    big = L.Linear(3000, 3000)  # 2 x 36 MB of windows: more than /dev/shm holds
    expected = _set_rank_grads(big, comm, 7)
    c.multi_node_mean_grad(big)
    assert c._grad_layout.groups[0].shared is None
    _check_mean(big, expected, 'big model')
    dump('small_shm', comm, {'ok': True})


def scenario_fake_hosts(comm):
    """Run with 4 processes: ranks {0, 1} and {2, 3} act as two hosts."""
    assert comm.size == 4, comm.size
    base = mn.communicators.MpiCommunicatorBase
    base._split_host = staticmethod(lambda mpi_comm, MPI: mpi_comm.Split(
        mpi_comm.rank // 2, mpi_comm.rank))
    try:
        c = mn.create_communicator('naive')
        model = MLP()
        expected = _set_rank_grads(model, comm, 4)
        c.multi_node_mean_grad(model)
        topo = c._topology
        assert topo.node.size == 2 and topo.inter.size == 2, topo
        assert c._grad_layout.groups[0].shared is not None
        _check_mean(model, expected, 'four ranks')
        result = {'topology': 'hierarchical',
                  'equivalence': _equivalence(
                      c, lambda: optimizers.MomentumSGD(lr=0.1), bn=False)}
    finally:
        base._split_host = None
    dump('fake_hosts', comm, result)


def scenario_objects(comm):
    r = comm.rank
    out = {}
    out['bcast_obj'] = comm.bcast_obj({'from': r, 'data': list(range(5))})
    out['bcast_obj_chunked'] = comm.bcast_obj('x' * 10000 if r == 0 else None,
                                              max_buf_len=1000) == 'x' * 10000
    out['bcast_obj_root1'] = comm.bcast_obj(r * 10, root=1)
    out['gather_obj'] = comm.gather_obj(('r', r))
    out['allreduce_obj'] = comm.allreduce_obj(r + 1)
    out['allreduce_obj_array'] = comm.allreduce_obj(numpy.array([r, 1.0])).tolist()
    if r == 0:
        comm.send_obj({'hello': 1}, dest=1, tag=7)
        out['recv_obj'] = comm.recv_obj(source=1)
    else:
        out['recv_obj'] = comm.recv_obj(source=0, tag=7)
        comm.send_obj([1, 2, 3], dest=0)
    sub = comm.split(color=r, key=0)
    out['split'] = [sub.rank, sub.size, sub.allreduce_obj(5)]
    sub.finalize()
    out['topology'] = [comm.intra_rank, comm.intra_size, comm.inter_rank,
                       comm.inter_size]
    x = numpy.arange(6, dtype=numpy.float32).reshape(2, 3) + r
    out['allreduce'] = comm.allreduce(x).tolist()
    out['allgather'] = [a.tolist() for a in comm.allgather(x[:, :r + 1])]
    out['bcast'] = comm.bcast(x, root=1).tolist()
    g = comm.gather(x, root=0)
    out['gather'] = None if g is None else [a.tolist() for a in g]
    out['scatter'] = comm.scatter(numpy.arange(4).reshape(2, 2) * 10 if r == 0 else None
                                  ).tolist()
    out['alltoall'] = [a.tolist() for a in comm.alltoall([x[0] + 10 * j for j in range(2)])]
    half = numpy.array([1.5, 2.5], dtype=numpy.float16) * (r + 1)
    s = comm.allreduce(half)
    assert s.dtype == numpy.float16
    out['float16'] = s.tolist()
    if r == 0:
        comm.send((x, x * 2), dest=1, tag=3)
        comm.send(x[0], dest=1, tag=4)
    else:
        a, b = comm.recv(source=0, tag=3)
        single = comm.recv(source=0, tag=4)
        out['recv'] = [a.tolist(), b.tolist(), single.tolist()]
    try:
        comm.allreduce([1, 2])
    except TypeError as e:
        out['bad_type'] = str(e)
    dump('objects', comm, out)


def scenario_scatter(comm):
    out = {}
    for n in (10, 7):
        sub = mn.scatter_dataset(list(range(n)) if comm.rank == 0 else None, comm)
        out['plain{}'.format(n)] = list(sub)
        sub = mn.scatter_dataset(list(range(n)) if comm.rank == 0 else None, comm,
                                 force_equal_length=False)
        out['disjoint{}'.format(n)] = list(sub)
    sub = mn.scatter_dataset(list(range(10)), comm, shuffle=True, seed=3)
    out['shuffled'] = [int(v) for v in sub]
    x, t = _data(20)
    sub = mn.scatter_dataset(minichainer.datasets.TupleDataset(x, t), comm, root=1)
    out['tuple_len'] = len(sub)
    out['index'] = list(mn.scatter_index(9, comm))
    out['raw_mpi4py'] = list(mn.scatter_dataset(list(range(6)), comm.mpi_comm))
    # fewer examples than ranks (or none): every rank gets ceil(n / size) of them, as
    # ChainerMN (whose tests scatter [] and [0] over every number of ranks)
    out['one'] = [int(v) for v in mn.scatter_dataset([42], comm)]
    out['empty'] = list(mn.scatter_dataset([], comm))
    dump('scatter', comm, out)


def scenario_evaluator(comm):
    numpy.random.seed(5)
    model = L.Classifier(MLP())
    comm.bcast_data(model)
    x, t = _data(40, seed=9)
    full = minichainer.datasets.TupleDataset(x, t)
    mine = mn.scatter_dataset(full, comm)
    it = minichainer.iterators.SerialIterator(mine, 10, repeat=False, shuffle=False)
    ev = mn.create_multi_node_evaluator(extensions.Evaluator(it, model), comm)
    result = ev()
    single_it = minichainer.iterators.SerialIterator(full, 10, repeat=False, shuffle=False)
    single = extensions.Evaluator(single_it, model)()
    out = {k: float(v) for k, v in result.items()}
    for k in single:
        numpy.testing.assert_allclose(out[k], float(single[k]), rtol=1e-6)
    dump('evaluator', comm, {'multi': out,
                             'single': {k: float(v) for k, v in single.items()}})


def scenario_mismatch(comm):
    model = L.Linear(3, 4 + comm.rank)
    try:
        comm.bcast_data(model)
        msg = None
    except ValueError as e:
        msg = str(e)
    model = L.Linear(None, 4)  # uninitialized on one rank only
    if comm.rank == 0:
        model(numpy.zeros((1, 3), numpy.float32))
    try:
        comm.bcast_data(model)
        msg2 = None
    except ValueError as e:
        msg2 = str(e)
    dump('mismatch', comm, {'shape': msg, 'uninit': msg2})


def scenario_functions(comm):
    from minichainer.distributed import functions as MF
    r = comm.rank
    out = {}
    x = minichainer.Variable(numpy.arange(3, dtype=numpy.float32) + 10 * r)
    ys = MF.allgather(comm, x)
    loss = sum(F.sum(y * (i + 1)) for i, y in enumerate(ys))
    loss.backward()
    out['allgather'] = [y.array.tolist() for y in ys]
    out['allgather_grad'] = x.grad.tolist()  # sum over ranks of (i+1) for y_i = x_r

    xs = [minichainer.Variable(numpy.full((2,), 10 * r + j, numpy.float32))
          for j in range(2)]
    ys = MF.alltoall(comm, xs)
    F.sum(ys[0] * 1 + ys[1] * 2).backward()
    out['alltoall'] = [y.array.tolist() for y in ys]
    out['alltoall_grad'] = [v.grad.tolist() for v in xs]

    x = minichainer.Variable(numpy.array([1., 2.], numpy.float32))
    y = MF.bcast(comm, x if r == 0 else None, root=0)
    F.sum(y * (r + 1)).backward()
    out['bcast'] = y.array.tolist()
    out['bcast_grad'] = x.grad.tolist() if r == 0 else None

    x = minichainer.Variable(numpy.array([r + 1.], numpy.float32))
    g = MF.gather(comm, x, root=0)
    if r == 0:
        F.sum(g[0] * 3 + g[1] * 5).backward()
        out['gather'] = [v.array.tolist() for v in g]
    else:
        g.backward()
    out['gather_grad'] = x.grad.tolist()

    if r == 0:
        xs = [minichainer.Variable(numpy.array([7., 8.], numpy.float32) * (j + 1))
              for j in range(2)]
        y = MF.scatter(comm, xs, root=0)
    else:
        y = MF.scatter(comm, None, root=0)
    F.sum(y * (r + 2)).backward()
    out['scatter'] = y.array.tolist()
    out['scatter_grad'] = [v.grad.tolist() for v in xs] if r == 0 else None

    # A two-stage model-parallel pipeline: rank 0 computes h, rank 1 the loss.
    w = minichainer.Variable(numpy.array([2.], numpy.float32))
    if r == 0:
        x = minichainer.Variable(numpy.array([3.], numpy.float32))
        phi = MF.send(x * w, comm, rank=1)
        phi.backward()
        out['p2p_grad'] = w.grad.tolist()  # d(h^2)/dw = 2 h x = 36
    else:
        h = MF.recv(comm, rank=0)
        F.sum(h * h).backward()
        out['p2p_recv'] = h.array.tolist()
    # pseudo_connect: rank 1 returns the gradient, rank 0 continues its graph.
    if r == 0:
        a = minichainer.Variable(numpy.array([1., 2.], numpy.float32))
        phi = MF.send(a * 2, comm, rank=1)
        b = minichainer.Variable(numpy.array([5.], numpy.float32))
        c, = MF.pseudo_connect(phi, b * 3)  # a tuple, even of one, as in ChainerMN
        F.sum(c).backward()
        out['pseudo'] = [a.grad.tolist(), b.grad.tolist()]
    else:
        h = MF.recv(comm, rank=0)
        F.sum(h * 10).backward()
    dump('functions', comm, out)


def scenario_mnbn_gradcheck(comm):
    """Gradient check of the multi-node BN function on a 1-process sub-communicator,
    and equality with plain batch normalization there."""
    from minichainer import gradient_check
    from minichainer.distributed.functions import batch_normalization as mnbn
    solo = comm.split(comm.rank, 0)
    rs = numpy.random.RandomState(comm.rank)
    x = rs.standard_normal((6, 3, 2)).astype(numpy.float64)
    gamma = rs.uniform(.5, 1.5, 3).astype(numpy.float64)
    beta = rs.standard_normal(3).astype(numpy.float64)
    gy = rs.standard_normal((6, 3, 2)).astype(numpy.float64)

    def f(x, gamma, beta):
        return mnbn.multi_node_batch_normalization(x, gamma, beta, solo)
    gradient_check.check_backward(f, (x, gamma, beta), gy, eps=1e-3, atol=1e-4,
                                  rtol=1e-4)
    y = f(x, gamma, beta).array
    y_ref = F.batch_normalization(x, gamma, beta).array
    numpy.testing.assert_allclose(y, y_ref, rtol=1e-6, atol=1e-6)
    solo.finalize()
    dump('mnbn_gradcheck', comm, {'ok': True})


def scenario_iterators(comm):
    data = list(range(12))
    it = mn.create_synchronized_iterator(
        minichainer.iterators.SerialIterator(data, 4), comm)
    order = [list(it.next()) for _ in range(3)]
    # as ChainerMN's, the multi-node iterator takes array elements only (no Python ints)
    it2 = mn.create_multi_node_iterator(
        minichainer.iterators.SerialIterator(
            numpy.arange(12), 5, repeat=False, shuffle=False), comm)
    batches = [[int(v) for v in b] for b in it2]
    dump('iterators', comm, {'sync': order, 'multi': batches,
                             'epoch': it2.epoch})


def scenario_persistent(comm):
    bn = L.BatchNormalization(3)
    bn.avg_mean[...] = comm.rank
    bn.N = comm.rank
    mn.extensions.AllreducePersistent(bn, comm)()
    dump('persistent', comm, {'avg_mean': bn.avg_mean.tolist()})


def scenario_aggregation(comm):
    """ObservationAggregator and GenericMultiNodeEvaluator."""
    from minichainer import reporter
    from minichainer import testing
    trainer = testing.get_trainer_with_mock_updater(stop_trigger=(4, 'iteration'))
    seen = []

    @training.make_extension(trigger=(1, 'iteration'),
                             priority=training.PRIORITY_WRITER)
    def observe(tr):
        reporter.report({'main/loss': float(comm.rank + tr.updater.iteration)})

    @training.make_extension(trigger=(1, 'iteration'),
                             priority=training.PRIORITY_READER)
    def record(tr):
        seen.append(tr.observation.get('main/loss_all'))

    trainer.extend(observe)
    trainer.extend(mn.extensions.ObservationAggregator(
        comm, 'main/loss', 'main/loss_all', comm_trigger=(2, 'iteration')))
    trainer.extend(record)
    trainer.run()

    class Sum(mn.extensions.GenericMultiNodeEvaluator):
        def calc_local(self, x):
            return float(x.sum())

        def aggregate(self, results):
            return sorted(results)

    # Early stopping on the mean over the ranks: rank 0 keeps improving, rank 1 gets
    # worse after iteration 3, so the mean stops improving there on both ranks.
    stop = mn.extensions.MultiNodeEarlyStoppingTrigger(
        comm, check_trigger=(1, 'iteration'), monitor='main/loss', patience=2,
        max_trigger=(50, 'iteration'))
    trainer2 = testing.get_trainer_with_mock_updater(stop_trigger=stop)

    @training.make_extension(trigger=(1, 'iteration'),
                             priority=training.PRIORITY_WRITER)
    def observe2(tr):
        it = tr.updater.iteration
        loss = -it if comm.rank == 0 or it <= 3 else 2 * it
        reporter.report({'main/loss': float(loss)})

    trainer2.extend(observe2)
    trainer2.run()
    stopped_at = trainer2.updater.iteration

    x = numpy.arange(10 * (comm.rank + 1), dtype=numpy.float32).reshape(-1, 1)
    it = minichainer.iterators.SerialIterator(list(x), 4, repeat=False, shuffle=False)
    result = Sum(comm, it, None)()
    dump('aggregation', comm, {'seen': seen, 'generic': result, 'stopped_at': stopped_at})


def scenario_chain_list(comm):
    """A 3-part MLP split over 2 processes (rank 0 -> rank 1 -> rank 0) with
    MultiNodeChainList has the gradients of the same MLP in one process."""
    def part(n_in, n_out, seed):
        numpy.random.seed(seed)
        return L.Linear(n_in, n_out)
    a, b, c = part(5, 6, 1), part(6, 7, 2), part(7, 3, 3)
    x = numpy.random.RandomState(0).standard_normal((4, 5)).astype(numpy.float32)
    t = numpy.array([0, 1, 2, 1], numpy.int32)
    ref = [lk.copy(mode='copy') for lk in (a, b, c)]
    loss_ref = F.softmax_cross_entropy(
        ref[2](F.relu(ref[1](F.relu(ref[0](x))))), t)
    loss_ref.backward()
    model = mn.MultiNodeChainList(comm)

    class Act(minichainer.Chain):
        def __init__(self, inner):
            super().__init__()
            with self.init_scope():
                self.inner = inner

        def forward(self, h):
            return F.relu(self.inner(h))

    if comm.rank == 0:
        model.add_link(Act(a), rank_in=None, rank_out=1)
        model.add_link(c, rank_in=1, rank_out=None)
        y = model(x)
        loss = F.softmax_cross_entropy(y, t)
        loss.backward()
        numpy.testing.assert_allclose(loss.array, loss_ref.array, rtol=1e-6)
        mine = [(a, ref[0]), (c, ref[2])]
    else:
        model.add_link(Act(b), rank_in=0, rank_out=0)
        phi = model(x)
        phi.backward()
        mine = [(b, ref[1])]
    for got, want in mine:
        numpy.testing.assert_allclose(got.W.grad, want.W.grad, rtol=1e-5, atol=1e-6)
        numpy.testing.assert_allclose(got.b.grad, want.b.grad, rtol=1e-5, atol=1e-6)
    with_error = None
    try:
        model.add_link(L.Linear(2, 2), rank_out=None)
        model.add_link(L.Linear(2, 2), rank_out=None)
    except ValueError as e:
        with_error = str(e)
    dump('chain_list', comm, {'ok': True, 'error': with_error})


def scenario_gpu_names(comm):
    out = {}
    for name in ('pure_nccl', 'hierarchical', 'two_dimensional', 'single_node', 'nope'):
        try:
            mn.create_communicator(name)
        except ValueError as e:
            out[name] = str(e)
    try:
        mn.create_multi_node_optimizer(optimizers.SGD(), comm, double_buffering=True)
    except ValueError as e:
        out['double_buffering'] = str(e)
    dump('gpu_names', comm, out)


# --------------------------------------------------------------------------- trainer
def _trainer(comm, out_dir, stop, fail_at=None, fail_rank=None):
    numpy.random.seed(comm.rank)
    model = L.Classifier(MLP())
    opt = mn.create_multi_node_optimizer(optimizers.MomentumSGD(lr=0.05), comm)
    opt.setup(model)
    x, t = _data(64, seed=1)
    train = mn.scatter_dataset(minichainer.datasets.TupleDataset(x, t), comm,
                               shuffle=True, seed=0)
    it = minichainer.iterators.SerialIterator(train, 8)
    updater = training.StandardUpdater(it, opt)
    trainer = training.Trainer(updater, (stop, 'iteration'), out=out_dir)
    if fail_at is not None:
        @training.make_extension(trigger=(1, 'iteration'))
        def fail(tr):
            if tr.updater.iteration == fail_at and comm.rank == fail_rank:
                raise RuntimeError('injected failure on rank {}'.format(comm.rank))
        trainer.extend(fail)
    return trainer, model, opt


def scenario_crash(comm):
    """Rank 1 raises at iteration 3 while rank 0 waits in the next Allreduce."""
    trainer, _, _ = _trainer(comm, os.path.join(OUT, 'crash'), 50, fail_at=3, fail_rank=1)
    trainer.run()


def scenario_checkpoint_first(comm):
    """Train with a checkpoint every 2 iterations; the job dies at iteration 5."""
    trainer, model, opt = _trainer(comm, os.path.join(OUT, 'cp'), 8, fail_at=5,
                                   fail_rank=0)
    cp = mn.create_multi_node_checkpointer('run', comm, cp_interval=2, gc_interval=1)
    trainer.extend(cp, trigger=(2, 'iteration'))
    assert cp.maybe_load(trainer, opt) is None
    trainer.run()


def scenario_checkpoint_resume(comm):
    trainer, model, opt = _trainer(comm, os.path.join(OUT, 'cp'), 8)
    cp = mn.create_multi_node_checkpointer('run', comm, cp_interval=2, gc_interval=1)
    trainer.extend(cp, trigger=(2, 'iteration'))
    files = sorted(f for f in os.listdir(os.path.join(OUT, 'cp')) if f.startswith('run.'))
    loaded = cp.maybe_load(trainer, opt)
    start = trainer.updater.iteration
    trainer.run()
    comm.mpi_comm.Barrier()  # every rank has finalized (removed its checkpoints)
    left = sorted(f for f in os.listdir(os.path.join(OUT, 'cp')) if f.startswith('run.'))
    # The uninterrupted reference run.
    ref, ref_model, _ = _trainer(comm, os.path.join(OUT, 'ref'), 8)
    ref.run()
    for (n, p), (_, q) in zip(sorted(model.namedparams()),
                              sorted(ref_model.namedparams())):
        numpy.testing.assert_allclose(p.array, q.array, rtol=1e-5, atol=1e-6, err_msg=n)
    dump('checkpoint', comm, {'files_before': files, 'loaded': loaded, 'start': start,
                              'files_after': left, 'params': params_of(model)})


def run_scenarios(scenarios, names):
    """Run `scenarios['scenario_' + name](comm)` for each name on a naive communicator,
    the ranks meeting after each; rank 0 prints ``OK NAME``."""
    comm = mn.create_communicator('naive')
    for name in names:
        scenarios['scenario_' + name](comm)
        comm.mpi_comm.Barrier()
        if comm.rank == 0:
            print('OK', name, flush=True)


def main():
    global OUT
    OUT = sys.argv[1]
    run_scenarios(globals(), sys.argv[2:])


if __name__ == '__main__':
    main()
