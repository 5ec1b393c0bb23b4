"""What works without MPI: lazy import, the install hint, argument checks."""
import importlib
import subprocess
import sys

import pytest

import minichainer
import minichainer.distributed as mn
from . import _launch

sd = importlib.import_module('minichainer.distributed.datasets.scatter_dataset')


def test_import_does_not_need_mpi4py():
    code = ('import sys; sys.modules["mpi4py"] = None\n'
            'import minichainer, minichainer.distributed as mn\n'
            'assert "mpi4py.MPI" not in sys.modules\n'
            'try:\n'
            '    mn.create_communicator()\n'
            'except ImportError as e:\n'
            '    print(e)\n')
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True,
                         env=_launch.mpi_env(), timeout=60)
    assert out.returncode == 0, out.stderr
    assert 'pip install minichainer[mpi]' in out.stdout


def test_chainermn_top_level_names():
    for name in ('create_communicator', 'create_multi_node_optimizer', 'scatter_dataset',
                 'scatter_index', 'create_multi_node_evaluator',
                 'create_multi_node_checkpointer', 'links', 'functions',
                 'global_except_hook', 'CommunicatorBase', 'DataSizeError',
                 'create_empty_dataset', 'create_synchronized_iterator',
                 'create_multi_node_iterator', 'MultiNodeBatchNormalization',
                 'multi_node_snapshot', 'datasets', 'extensions', 'iterators',
                 'optimizers', 'communicators'):
        assert hasattr(mn, name), name
    for name in ('allgather', 'alltoall', 'bcast', 'gather', 'scatter', 'send', 'recv',
                 'pseudo_connect'):
        assert callable(getattr(mn.functions, name)), name


@pytest.mark.parametrize('name', ['pure_nccl', 'hierarchical', 'two_dimensional',
                                  'single_node'])
def test_gpu_communicators_raise_before_touching_mpi(name):
    with pytest.raises(ValueError, match='needs GPUs'):
        mn.create_communicator(name)


def test_bad_communicator_arguments():
    with pytest.raises(ValueError, match='unrecognized communicator'):
        mn.create_communicator('fast')
    with pytest.raises(ValueError, match='allreduce_grad_dtype'):
        mn.create_communicator('naive', allreduce_grad_dtype='float16')
    with pytest.raises(TypeError, match='unexpected keyword'):
        mn.create_communicator('naive', nonsense=1)


def test_index_ranges():
    assert list(sd._index_ranges(10, 3, True)) == [(0, 0, 4), (1, 3, 7), (2, 6, 10)]
    assert list(sd._index_ranges(10, 3, False)) == [(0, 0, 4), (1, 4, 7), (2, 7, 10)]
    for n in range(1, 30):
        for size in range(1, 6):
            ranges = list(sd._index_ranges(n, size, False))
            assert sum((list(range(b, e)) for _, b, e in ranges), []) == list(range(n))
            eq = list(sd._index_ranges(n, size, True))
            assert all(e <= n for _, _, e in eq)
            assert set().union(*(range(b, e) for _, b, e in eq)) == set(range(n))


def test_data_size_error_is_a_value_error():
    assert issubclass(mn.DataSizeError, ValueError)
    assert issubclass(mn.DataSizeError, RuntimeError)


def test_except_hook_installed_by_default_and_passes_through_without_mpi(capsys):
    from minichainer.distributed import global_except_hook as geh
    assert sys.excepthook is geh._global_except_hook
    try:
        raise KeyError('boom')
    except KeyError:
        geh._global_except_hook(*sys.exc_info())  # MPI not running: only prints
    assert 'boom' in capsys.readouterr().err


def test_create_mnbn_model_replaces_batch_normalization():
    import numpy
    import minichainer
    import minichainer.links as L

    class Net(minichainer.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.l1 = L.Linear(3, 4)
                self.bn = L.BatchNormalization(4)
                self.seq = minichainer.ChainList(L.BatchNormalization(4))

    net = Net()
    net.bn.avg_mean[...] = 2.
    net.bn.gamma.array[...] = 3.
    mnbn = mn.links.create_mnbn_model(net, comm=None)
    assert type(net.bn) is L.BatchNormalization  # the original is untouched
    assert isinstance(mnbn.bn, mn.MultiNodeBatchNormalization)
    assert isinstance(mnbn.seq[0], mn.MultiNodeBatchNormalization)
    numpy.testing.assert_array_equal(mnbn.bn.avg_mean, net.bn.avg_mean)
    numpy.testing.assert_array_equal(mnbn.bn.gamma.array, net.bn.gamma.array)
    assert [n for n, _ in mnbn.namedparams()] == [n for n, _ in net.namedparams()]
    assert mnbn.l1.W is not net.l1.W
    with pytest.raises(ValueError, match='communication_backend'):
        mn.MultiNodeBatchNormalization(4, None, communication_backend='nccl')


def test_testing_get_device():
    assert str(mn.testing.get_device()) == '@numpy'
    with pytest.raises(Exception, match='cupy'):
        mn.testing.get_device(0)


class _FakeComm:
    """Records what the multi-node optimizer asks of its communicator."""

    def __init__(self):
        self.calls = []

    def bcast_data(self, model):
        self.calls.append('bcast')

    def multi_node_mean_grad(self, model, zero_fill=False):
        self.calls.append(('mean', zero_fill))


def test_multi_node_optimizer_protocol(tmp_path):
    import numpy
    import minichainer
    import minichainer.links as L

    model = L.Classifier(L.Linear(None, 3))
    comm = _FakeComm()
    opt = mn.create_multi_node_optimizer(minichainer.optimizers.SGD(lr=0.1), comm)
    assert opt.setup(model) is opt
    x = numpy.ones((2, 4), numpy.float32)
    t = numpy.array([0, 1], numpy.int32)
    opt.update(model, x, t)  # lazily initialized parameters: broadcast only
    assert comm.calls == ['bcast'] and opt.t == 0
    opt.update(model, x, t)
    assert comm.calls == ['bcast', ('mean', True)] and opt.t == 1
    opt.lr = 0.5
    assert opt.actual_optimizer.lr == 0.5 and opt.lr == 0.5
    # Serializes as the wrapped optimizer.
    minichainer.serializers.save_npz(str(tmp_path / 'o.npz'), opt)
    with numpy.load(str(tmp_path / 'o.npz')) as f:
        assert set(f.files) == {'t', 'epoch', 'predictor/W/t', 'predictor/b/t'}
    # After a resume (checkpointer), the first update does not broadcast.
    opt2 = mn.create_multi_node_optimizer(minichainer.optimizers.SGD(), comm,
                                          zero_fill=False).setup(model)
    opt2.needs_broadcast = False
    opt2.update(model, x, t)
    assert comm.calls[-1] == ('mean', False)
    with pytest.raises(ValueError, match='double_buffering'):
        mn.create_multi_node_optimizer(minichainer.optimizers.SGD(), comm,
                                       double_buffering=True)


class _SoloComm:
    """A one-rank communicator: enough for scatter_dataset."""
    rank = 0
    size = 1

    def bcast_obj(self, obj, max_buf_len=None, root=0):
        return obj


def test_scatter_dataset_shuffle_draws_as_chainermn():
    # ChainerMN permutes with numpy.random.RandomState(seed) (never the global RNG), so
    # seeded runs match Chainer's and a later global draw (weight initialization of
    # lazily built links) is unchanged.
    import numpy
    data = list(range(20))
    numpy.random.seed(3)
    before = numpy.random.get_state(legacy=True)[1].copy()
    sub = mn.scatter_dataset(data, _SoloComm(), shuffle=True, seed=7)
    assert list(sub) == list(numpy.random.RandomState(7).permutation(20))
    assert (numpy.random.get_state(legacy=True)[1] == before).all()
    numpy.random.seed(3)
    expected_next = numpy.random.rand()
    numpy.random.seed(3)
    mn.scatter_dataset(data, _SoloComm(), shuffle=True, seed=7)
    assert numpy.random.rand() == expected_next
    # seed=None: a fresh permutation per call, as ChainerMN (runs are then not
    # reproducible under either; pass seed= for that)
    a = list(mn.scatter_dataset(data, _SoloComm(), shuffle=True))
    b = list(mn.scatter_dataset(data, _SoloComm(), shuffle=True))
    assert sorted(a) == data and a != b
    assert list(mn.scatter_dataset(data, _SoloComm())) == data


def test_scatter_small_datasets_and_chainermn_module_name():
    # As ChainerMN: no error for fewer examples than ranks; the module is also
    # reachable as chainermn.datasets.scatter with its _scatter_index helper.
    assert list(mn.scatter_dataset([], _SoloComm())) == []
    assert list(mn.scatter_dataset([5], _SoloComm(), shuffle=True)) == [5]
    assert mn.scatter_index(0, _SoloComm()) == (0, 0)
    assert list(mn.datasets.scatter._scatter_index(10, 3, False)) == [
        (0, 0, 4), (1, 4, 7), (2, 7, 10)]
    assert list(mn.datasets.scatter._scatter_index(1, 2, True)) == [(0, 0, 1), (1, 0, 1)]
    with pytest.raises(ValueError, match='non-negative int, got -1'):
        mn.scatter_index(-1, _SoloComm())


def test_chainermn_private_names():
    # Names Chainer-era code and ChainerMN's tests import from ChainerMN's modules.
    import numpy
    mni = importlib.import_module('minichainer.distributed.iterators.multi_node_iterator')
    msg = mni._build_ctrl_msg(True, False, True, True, 7)
    assert msg.dtype == numpy.float32 and msg.tolist() == [1, 0, 1, 1, 7]
    assert mni._parse_ctrl_msg(msg) == (True, False, True, True, 7)
    assert mni._is_valid_type(numpy.float32(1))
    assert mni._is_valid_type((numpy.zeros(2), numpy.int32(1)))
    assert not mni._is_valid_type(3) and not mni._is_valid_type('x')
    snap = importlib.import_module('minichainer.distributed.extensions._multi_node_snapshot')
    assert snap._parse_replica_sets([0], 3) == [{0}, {1, 2}]
    nccl = importlib.import_module('minichainer.distributed.nccl')
    assert nccl._available is False and not hasattr(nccl, 'get_build_version')
    with pytest.raises(AttributeError, match='NCCL is not available'):
        nccl.get_version()
    pure = importlib.import_module(
        'minichainer.distributed.communicators.pure_nccl_communicator')
    with pytest.raises(RuntimeError, match='NCCL'):
        pure.PureNcclCommunicator(None)
    util = importlib.import_module(
        'minichainer.distributed.communicators._communication_utility')
    assert util.INT_MAX == 2 ** 31 - 1
    for bad in (0, -1, util.INT_MAX):  # ChainerMN's bound, both error types caught
        with pytest.raises(ValueError, match='max_buf_len'):
            util.chunked_bcast_obj(1, None, max_buf_len=bad)
        with pytest.raises(AssertionError):
            util.chunked_bcast_obj(1, None, max_buf_len=bad)


def test_multi_node_iterator_rejects_non_array_elements():
    it = mn.create_multi_node_iterator(
        minichainer.iterators.SerialIterator(['a', 'b'], 1, shuffle=False), _SoloComm())
    with pytest.raises(TypeError, match='ndarray or tuple'):
        it.next()


def test_pseudo_connect_returns_a_tuple_as_chainermn():
    import numpy
    delegate = minichainer.Variable(numpy.zeros(2, numpy.float32))
    x = minichainer.Variable(numpy.arange(3, dtype=numpy.float32))
    ys = mn.functions.pseudo_connect(delegate, x)
    assert isinstance(ys, tuple) and len(ys) == 1
    ys[0].grad = numpy.ones(3, numpy.float32)
    ys[0].backward()
    numpy.testing.assert_array_equal(x.grad, numpy.ones(3))
    numpy.testing.assert_array_equal(delegate.grad, numpy.zeros(2))
    y, = mn.functions.pseudo_connect(None, x)  # an empty float32 delegate
    assert y is not x and y.creator is not None


def test_checkpointer_parses_its_file_names():
    cp = mn.create_multi_node_checkpointer('hoge', _SoloComm())
    names = cp._filenames([3, 10])
    assert names == ['hoge.0.3', 'hoge.0.10']
    assert cp._parse_filenames(names + ['other.0.1']) == [
        ('hoge', 0, 3), ('hoge', 0, 10), None]


class _RecordingComm:
    """The master of a two-rank job: keeps a copy of what it broadcasts."""
    rank = 0
    size = 2

    def __init__(self, sent):
        self.sent = sent

    def bcast_obj(self, obj, max_buf_len=None, root=0):
        import pickle
        self.sent.append(pickle.loads(pickle.dumps(obj)))
        return obj


class _ReplayComm:
    """A slave of that job: receives what the master broadcast, in order."""
    rank = 1
    size = 2

    def __init__(self, sent):
        self.sent = sent

    def bcast_obj(self, obj, max_buf_len=None, root=0):
        return self.sent.pop(0)


def test_multi_node_iterator_slave_serializes_the_masters_state():
    # ChainerMN's test_overwrite_order on rank 1: a slave saves the master's counters and
    # first order under the iterator's keys; what it loads does not change its batches.
    import io
    import numpy

    sent = []

    def make(comm):
        return mn.create_multi_node_iterator(minichainer.iterators.SerialIterator(
            numpy.arange(12), 4, shuffle=True, repeat=False), comm)
    numpy.random.seed(0)
    master = make(_RecordingComm(sent))
    slave = make(_ReplayComm(sent))
    first_order = master._state.order.copy()
    assert slave._order.tolist() == first_order.tolist()
    assert _ints(master.next()) == _ints(slave.next())
    assert slave.current_position == master.current_position == 4

    saved_master, saved_slave = io.BytesIO(), io.BytesIO()
    minichainer.serializers.save_npz(saved_master, master)
    minichainer.serializers.save_npz(saved_slave, slave)
    with numpy.load(io.BytesIO(saved_master.getvalue())) as m, \
            numpy.load(io.BytesIO(saved_slave.getvalue())) as s:
        assert set(s.files) == {'current_position', 'epoch', 'is_new_epoch', 'order'}
        assert set(s.files) <= set(m.files)
        for key in s.files:
            assert s[key].tolist() == m[key].tolist(), key
        arrays = dict(m)

    # A file with another order, loaded on every rank (as a snapshot is): the master
    # takes the order, and the slave keeps receiving the master's batches.
    arrays['order'] = numpy.roll(arrays['order'], 1)
    rolled = io.BytesIO()
    numpy.savez(rolled, **arrays)
    for it in (master, slave):
        minichainer.serializers.load_npz(io.BytesIO(rolled.getvalue()), it)
    assert master._state.order.tolist() == arrays['order'].tolist()
    assert (slave.epoch, slave.current_position) == (0, 4)
    batch = _ints(master.next())
    assert batch == arrays['order'][4:8].tolist()
    assert _ints(slave.next()) == batch


def _ints(batch):
    return [int(v) for v in batch]


def test_multi_node_iterator_slave_without_order():
    import numpy

    sent = []

    def make(comm):
        return mn.create_multi_node_iterator(minichainer.iterators.SerialIterator(
            numpy.arange(6), 3, shuffle=False, repeat=False), comm)
    master = make(_RecordingComm(sent))
    slave = make(_ReplayComm(sent))
    target = {}

    class Recorder(minichainer.serializer.Serializer):
        def __getitem__(self, key):
            raise NotImplementedError

        def __call__(self, key, value):
            target[key] = value
            return value
    master.next()
    slave.next()
    slave.serialize(Recorder())
    assert target == {'current_position': 3, 'epoch': 0, 'is_new_epoch': False}


def test_chainermn_memory_utility():
    # chainermn.communicators._memory_utility (ChainerMN's test_mpi.py imports it): the
    # parameter lists, the buffer object of a NumPy array, and CUDA buffers that raise.
    import numpy
    import minichainer.links as L
    mu = importlib.import_module('minichainer.distributed.communicators._memory_utility')
    model = minichainer.Chain()
    with model.init_scope():
        model.b = L.Linear(3, 2)
        model.a = L.Linear(None, 4)  # not initialized: no array
    # sorted by name: /a/b, /b/W, /b/b (/a/W holds no array yet)
    expected = [model.a.b, model.b.W, model.b.b]
    params = mu.extract_params_set_data(model)
    assert len(params) == 3 and all(p is q for p, q in zip(params, expected))
    for p in params:
        p.grad = None
    assert mu.extract_params_set_grad(model, zero_fill=False) == []
    model.b.W.grad = numpy.ones((2, 3), numpy.float32)
    assert mu.extract_params_set_grad(model, zero_fill=False) == [model.b.W]
    params = mu.extract_params_set_grad(model, zero_fill=True)
    assert len(params) == 3 and all(p is q for p, q in zip(params, expected))
    assert mu.count_grad_elements(params, zero_fill=True) == 4 + 6 + 2
    assert mu.count_grad_elements([model.b.W], zero_fill=False) == 6
    x = numpy.arange(12, dtype=numpy.float32)
    assert mu.array_to_buffer_object(x) is x
    strided = mu.array_to_buffer_object(x[::2])
    assert strided.flags.c_contiguous and strided.tolist() == x[::2].tolist()
    with pytest.raises(ValueError, match='unsupported array module'):
        mu.get_device_memory_pointer([1, 2])
    for cls in (mu.HostPinnedMemory, mu.DeviceMemory):
        with pytest.raises(RuntimeError, match='CUDA'):
            cls()
