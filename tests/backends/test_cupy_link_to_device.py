"""Links and Variables moved between the CPU and a GPU (the CuPy test double, or real
CuPy on a GPU run): parameters, gradients, persistents, and the errors of mixed devices."""
import copy
import pickle
import warnings

import numpy
import pytest

import cupy_double
import minichainer
import minichainer.functions as F
import minichainer.links as L
from minichainer import backend
from minichainer.backends import cuda


class _Net(minichainer.Chain):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(3, 4)
            self.bn = L.BatchNormalization(4)
            self.l2 = L.Linear(None, 2)  # uninitialized until the first call
        self.add_persistent('count', numpy.zeros((), numpy.int64))
        self.add_persistent('scale', 2.0)

    def forward(self, x):
        return self.l2(F.relu(self.bn(self.l1(x))))


def _arrays(link):
    out = {}
    for path, p in link.namedparams():
        out[path] = p.array
        out[path + '@grad'] = p.grad
    for path, sub in link.namedlinks():
        for name in sub._persistent:
            out[path + '#' + name] = sub.__dict__[name]
    return out


def test_link_to_device_cupy_and_back(cupy_device):
    xp = cupy_device.xp
    net = _Net()
    x = numpy.random.rand(5, 3).astype(numpy.float32)
    net(x)  # initializes l2 on the CPU
    for p in net.params():
        p.grad = numpy.full_like(p.array, 0.5)
    before = {k: (v.copy() if isinstance(v, numpy.ndarray) else v)
              for k, v in _arrays(net).items()}
    assert net.to_device(cupy_device) is net
    assert net.device == cupy_device and net.l1.device == cupy_device
    assert net.xp is xp and net.l1.xp is xp
    for key, value in _arrays(net).items():
        if isinstance(before[key], numpy.ndarray):
            assert type(value) is xp.ndarray, key
            numpy.testing.assert_array_equal(cuda.to_cpu(value), before[key])
        else:
            assert value == before[key], key  # a Python float persistent stays as it is
    for p in net.params():
        assert p.device == cupy_device and p.xp is xp
    net.to_device('@numpy')
    assert net.device == backend.CpuDevice()
    for key, value in _arrays(net).items():
        if isinstance(before[key], numpy.ndarray):
            assert type(value) is numpy.ndarray, key
            numpy.testing.assert_array_equal(value, before[key])


def test_link_forward_backward_on_cupy_without_host_copies(cupy_device):
    xp = cupy_device.xp
    net = _Net()
    net.to_device(cupy_device)
    x = cupy_device.send(numpy.random.rand(5, 3).astype(numpy.float32))
    with cupy_double.forbid_host_transfer():
        y = net(x)  # initializes l2 on the GPU: drawn on the device
        loss = F.sum(y * y)
        net.cleargrads()
        loss.backward()
    assert type(net.l2.W.array) is xp.ndarray and net.l2.W.device == cupy_device
    for path, p in net.namedparams():
        assert type(p.grad) is xp.ndarray, path
    assert type(net.bn.avg_mean) is xp.ndarray


def test_uninitialized_parameter_initializes_on_the_device(cupy_device):
    xp = cupy_device.xp
    p = minichainer.Parameter(minichainer.initializers.Normal(0.1))
    p.to_device(cupy_device)
    assert p.array is None and p.device == cupy_device
    p.initialize((3, 2))
    assert type(p.array) is xp.ndarray and p.array.shape == (3, 2)
    q = minichainer.Parameter(cupy_device.send(numpy.ones(3, numpy.float32)))
    assert type(q.array) is xp.ndarray and q.device == cupy_device


def test_deprecated_to_gpu_and_to_cpu(cupy_device):
    xp = cupy_device.xp
    link = L.Linear(2, 3)
    with pytest.warns(DeprecationWarning, match='to_device'):
        assert link.to_gpu() is link
    assert type(link.W.array) is xp.ndarray and link.device == cupy_device
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', DeprecationWarning)
        assert link._device_id == 0
        link.to_gpu(0)  # already there: nothing moves
        link.to_cpu()
        assert link._device_id is None
    assert type(link.W.array) is numpy.ndarray and link.device == backend.CpuDevice()


def test_to_gpu_leaves_arrays_on_another_gpu(cupy_device):
    if not cupy_double.is_double(cupy_device.xp):
        pytest.skip('needs the CuPy test double (controls the GPU count)')
    cupy_double.set_device_count(2)
    link = L.Linear(2, 3)
    link.to_device('@cupy:1')
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', DeprecationWarning)
        with pytest.warns(RuntimeWarning, match='already on GPU-1'):
            link.to_gpu(0)
    assert link.W.array.device.id == 1  # as Chainer: to_gpu does not move between GPUs
    link.to_device('@cupy:0')  # to_device does
    assert link.W.array.device.id == 0 and link.b.array.device.id == 0


def test_variable_device_moves(cupy_device):
    xp = cupy_device.xp
    v = minichainer.Variable(numpy.arange(3, dtype=numpy.float32))
    v.grad = numpy.ones(3, numpy.float32)
    assert v.device == backend.CpuDevice() and v.xp is numpy
    v.to_device('@cupy:0')
    assert type(v.array) is xp.ndarray and type(v.grad) is xp.ndarray
    assert v.device == cupy_device and v.xp is xp
    v.to_cpu()
    assert type(v.array) is numpy.ndarray and type(v.grad) is numpy.ndarray
    assert v.device == backend.CpuDevice()
    v.to_gpu()
    assert type(v.array) is xp.ndarray
    w = minichainer.Variable(cupy_device.send(numpy.zeros(2, numpy.float32)))
    assert w.device == cupy_device and w.xp is xp  # from its array alone
    w.to_device(-1)
    assert type(w.array) is numpy.ndarray
    w.array = cupy_device.send(numpy.ones(2, numpy.float32))
    assert w.device == cupy_device
    assert 'variable' in repr(v) and '[0. 1. 2.]' in str(v)  # printing: one host copy


def test_variable_grads_across_devices(cupy_device):
    xp = cupy_device.xp
    a = minichainer.Variable(cupy_device.send(numpy.zeros(3, numpy.float32)))
    b = minichainer.Variable(numpy.zeros(3, numpy.float32))
    b.grad = numpy.ones(3, numpy.float32)
    a.addgrad(b)  # the CPU gradient comes to the GPU
    assert type(a.grad) is xp.ndarray and cuda.to_cpu(a.grad).tolist() == [1, 1, 1]
    a.addgrad(b)
    assert cuda.to_cpu(a.grad).tolist() == [2, 2, 2]
    b.addgrad(a)  # and the reverse
    assert type(b.grad) is numpy.ndarray and b.grad.tolist() == [3, 3, 3]
    b.copydata(a)
    a.copydata(b)
    with pytest.raises(TypeError, match='Type of data and grad mismatch'):
        a.grad = numpy.ones(3, numpy.float32)
    with pytest.raises(TypeError, match="@numpy"):
        b.grad = cupy_device.send(numpy.ones(3, numpy.float32))


def test_gpu_input_into_cpu_link_names_devices_and_parameter(cupy_device):
    link = L.Linear(3, 2)
    x = cupy_device.send(numpy.ones((1, 3), numpy.float32))
    with pytest.raises(TypeError) as e:
        link(x)
    msg = str(e.value)
    assert 'incompatible array types are mixed in the forward input' in msg
    assert "@cupy:0" in msg and "@numpy" in msg and "'W'" in msg
    link.to_device(cupy_device)
    with pytest.raises(TypeError) as e:
        link(numpy.ones((1, 3), numpy.float32))  # the reverse
    msg = str(e.value)
    assert "input 0 on @numpy" in msg and "('W') on @cupy:0" in msg


def test_inputs_on_two_gpus_raise(cupy_device):
    if not cupy_double.is_double(cupy_device.xp):
        pytest.skip('needs the CuPy test double (controls the GPU count)')
    cupy_double.set_device_count(2)
    a = minichainer.Variable(cupy_device.send(numpy.ones(2, numpy.float32)), name='a')
    b = minichainer.Variable(backend.get_device('@cupy:1').send(numpy.ones(2, numpy.float32)),
                             name='b')
    with pytest.raises(TypeError) as e:
        F.add(a, b)
    msg = str(e.value)
    assert 'arrays on different devices' in msg
    assert "input 0 ('a') on @cupy:0" in msg and "input 1 ('b') on @cupy:1" in msg


def test_link_copy_pickle_and_copyparams_across_devices(cupy_device):
    xp = cupy_device.xp
    src = _Net()
    src(numpy.ones((2, 3), numpy.float32))
    dst = copy.deepcopy(src)
    dst.to_device(cupy_device)
    for p in src.params():
        p.array[...] = 0.25
    src.count[...] = 7
    dst.copyparams(src)  # CPU -> GPU
    assert cuda.to_cpu(dst.l1.W.array).tolist()[0][0] == 0.25
    assert type(dst.count) is xp.ndarray and int(dst.count) == 7
    src.copyparams(dst)  # GPU -> CPU
    assert type(src.l1.W.array) is numpy.ndarray
    dup = copy.deepcopy(dst)
    assert type(dup.l1.W.array) is xp.ndarray and dup.l1.W.array is not dst.l1.W.array
    again = pickle.loads(pickle.dumps(dst))
    assert type(again.l1.W.array) is xp.ndarray


def test_link_serialize_loads_into_gpu_link(cupy_device):
    xp = cupy_device.xp
    src = L.Linear(3, 2)
    target = {}
    minichainer.serializers.DictionarySerializer(target).save(src) \
        if hasattr(minichainer.serializers, 'DictionarySerializer') else None
    if not target:
        pytest.skip('no DictionarySerializer')
    dst = L.Linear(None, 2)
    dst.to_device(cupy_device)
    minichainer.serializers.NpzDeserializer(target).load(dst)
    assert type(dst.W.array) is xp.ndarray
    numpy.testing.assert_array_equal(cuda.to_cpu(dst.W.array), src.W.array)


def test_optimizer_step_on_gpu_link(cupy_device):
    xp = cupy_device.xp
    net = L.Linear(3, 2)
    net.to_device(cupy_device)
    opt = minichainer.optimizers.SGD(lr=0.1)
    opt.setup(net)
    x = cupy_device.send(numpy.ones((4, 3), numpy.float32))
    before = cuda.to_cpu(net.W.array).copy()
    net.cleargrads()
    F.sum(net(x)).backward()
    opt.update()
    assert type(net.W.array) is xp.ndarray
    numpy.testing.assert_allclose(cuda.to_cpu(net.W.array), before - 0.1 * 4, rtol=1e-6)
