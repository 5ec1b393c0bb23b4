"""GPU devices and `chainer.backends.cuda` on CuPy (the test double, or real CuPy on a GPU
run with MINICHAINER_TEST_REAL_CUPY=1)."""
import warnings

import numpy
import pytest

import cupy_double
import minichainer
from minichainer import backend
from minichainer.backends import cuda


def _double_only(xp):
    if not cupy_double.is_double(xp):
        pytest.skip('needs the CuPy test double (controls the GPU count)')


@pytest.mark.parametrize('spec', ['@cupy:0', 0, '0', numpy.int64(0), numpy.int32(0)])
def test_get_device_cupy_specs(cupy_device, spec):
    device = backend.get_device(spec)
    assert isinstance(device, backend.GpuDevice)
    assert device == cupy_device and hash(device) == hash(cupy_device)
    assert device.xp is cuda.cupy and device.device.id == 0
    assert str(device) == '@cupy:0' and device.name == '@cupy:0'
    assert repr(device) == '<GpuDevice (cupy):0>'
    assert device != backend.CpuDevice() and backend.CpuDevice() != device
    assert device.supported_array_types == (cuda.ndarray,)


def test_get_device_from_cuda_device_and_from_id(cupy_device):
    xp = cupy_device.xp
    assert backend.get_device(xp.cuda.Device(0)) == cupy_device
    assert backend.GpuDevice.from_device_id(0) == cupy_device
    assert backend.GpuDevice(xp.cuda.Device(0)) == cupy_device
    with pytest.raises(ValueError, match='Invalid CUDA device ID'):
        backend.GpuDevice.from_device_id(-1)
    with pytest.raises(TypeError, match='cupy.cuda.Device'):
        backend.GpuDevice(0)
    assert minichainer.get_device('-1') == backend.CpuDevice()  # the CPU stays the CPU


@pytest.mark.parametrize('spec', ['@cupy:7', 7, '7'])
def test_cupy_missing_gpu_names_id_and_count(cupy_device, spec):
    count = cupy_device.xp.cuda.runtime.getDeviceCount()
    if count > 7:
        pytest.skip('this machine has GPU 7')
    with pytest.raises(RuntimeError) as e:
        backend.get_device(spec)
    msg = str(e.value)
    assert 'CUDA device 7 does not exist' in msg
    assert 'this machine has {} GPU'.format(count) in msg


@pytest.mark.parametrize('spec', ['@cupy:x', '@cupy:-1', '@cupy'])
def test_cupy_malformed_specs(cupy_device, spec):
    with pytest.raises(ValueError, match='cupy'):
        backend.get_device(spec)


def test_cupy_second_gpu_when_present(cupy_device):
    _double_only(cupy_device.xp)
    cupy_double.set_device_count(2)
    dev1 = backend.get_device('@cupy:1')
    assert str(dev1) == '@cupy:1' and dev1 != cupy_device
    x0 = cupy_device.send(numpy.arange(3.0))
    x1 = dev1.send(x0)  # a device-to-device copy
    assert x1.device.id == 1 and x0.device.id == 0
    assert backend.get_device_from_array(x1) == dev1
    assert dev1.send(x1) is x1
    assert dev1.is_array_supported(x1) and not dev1.is_array_supported(x0)
    with minichainer.using_device(dev1):
        assert cupy_device.xp.cuda.get_device_id() == 1
        assert backend.get_current_device() == dev1
    assert cupy_device.xp.cuda.get_device_id() == 0


def test_cupy_send_both_ways(cupy_device):
    xp = cupy_device.xp
    h = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)
    d = cupy_device.send(h)
    assert type(d) is xp.ndarray and d.dtype == numpy.float32 and d.shape == (2, 3)
    assert cupy_device.send(d) is d
    back = backend.CpuDevice().send(d)
    assert type(back) is numpy.ndarray
    numpy.testing.assert_array_equal(back, h)
    tree = cupy_device.send({'a': h, 'b': [h, None, (numpy.float32(2),)]})
    assert type(tree['a']) is xp.ndarray and tree['b'][1] is None
    assert type(tree['b'][2][0]) is xp.ndarray and tree['b'][2][0].shape == ()
    host = backend.CpuDevice().send(tree)
    assert type(host['b'][0]) is numpy.ndarray
    assert type(minichainer.backend.to_numpy(d)) is numpy.ndarray
    with pytest.raises(TypeError, match='array'):
        cupy_device.send(object())


def test_cupy_get_array_module_and_device_from_array(cupy_device):
    xp = cupy_device.xp
    d = cupy_device.send(numpy.ones(2, numpy.float32))
    h = numpy.ones(2, numpy.float32)
    assert backend.get_array_module(d) is xp
    assert backend.get_array_module(h, d) is xp
    assert backend.get_array_module(minichainer.Variable(d)) is xp
    assert backend.get_array_module(h, minichainer.Variable(h)) is numpy
    assert backend.get_array_module() is numpy
    assert cuda.get_array_module(d) is xp
    assert backend.get_device_from_array(d) == cupy_device
    assert backend.get_device_from_array(h, d) == cupy_device
    assert backend.get_device_from_array(h) == backend.CpuDevice()
    assert backend.GpuDevice.from_array(d) == cupy_device
    assert backend.GpuDevice.from_array(h) is None
    assert backend.CpuDevice.from_array(d) is None
    assert backend.is_arrays_compatible([d, None, d])
    assert not backend.is_arrays_compatible([d, h])
    assert backend.get_array_types() == (numpy.ndarray, xp.ndarray)
    assert backend._guess_device_from_array_module(xp) == cupy_device


def test_cupy_using_device_and_with(cupy_device):
    with minichainer.using_device('@cupy:0') as dev:
        assert dev == cupy_device and backend.get_current_device() == cupy_device
    assert backend.get_current_device() == backend.CpuDevice()
    with cupy_device as dev:  # minichainer's GPU device accepts `with` (Chainer's refuses)
        assert dev is cupy_device and backend.get_current_device() == cupy_device
    assert backend.get_current_device() == backend.CpuDevice()
    cupy_device.use()
    assert cupy_device.xp.cuda.get_device_id() == 0


def test_cupy_cuda_module(cupy_device):
    xp = cupy_device.xp
    assert cuda.available is True and cuda.cupy is xp and cuda.cupyx is not None
    assert cuda.cudnn_enabled is False and cuda.should_use_cudnn('>=auto') is False
    assert cuda.should_use_cudnn_tensor_core(numpy.float16) is False
    h = numpy.arange(3.0)
    d = cuda.to_gpu(h)
    assert type(d) is xp.ndarray and cuda.to_gpu(d) is d
    assert cuda.to_gpu(None) is None
    pair = cuda.to_gpu((h, None), device=0)
    assert type(pair[0]) is xp.ndarray and pair[1] is None
    assert type(cuda.to_cpu(d)) is numpy.ndarray and cuda.to_cpu(h) is h
    c = cuda.copy(d)
    assert c is not d and type(c) is xp.ndarray
    out = xp.zeros(3)
    assert cuda.copy(d, out=out) is out and cuda.to_cpu(out).tolist() == [0.0, 1.0, 2.0]
    with pytest.raises(TypeError):
        cuda.copy(h)
    assert cuda.get_device_from_id(0) == xp.cuda.Device(0)
    assert cuda.get_device_from_id(None) is cuda.DummyDevice
    assert cuda.get_device_from_id(-1) is cuda.DummyDevice
    assert cuda.get_device_from_array(d) == xp.cuda.Device(0)
    assert cuda.get_device_from_array(h) is cuda.DummyDevice
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', DeprecationWarning)
        assert cuda.get_device(d) == xp.cuda.Device(0)
        assert cuda.get_device(0) == xp.cuda.Device(0)
        assert cuda.get_device(h) is cuda.DummyDevice
    with cuda.using_device(0):
        assert xp.cuda.get_device_id() == 0
    with cuda.get_device_from_id(0):
        pass
    assert isinstance(d, cuda.ndarray) and not isinstance(h, cuda.ndarray)
    cuda.check_cuda_available()
    assert cuda.get_max_workspace_size() == 0
    cuda.set_max_workspace_size(1 << 20)


def test_cupy_cuda_kernels_memoize_fuse(cupy_device):
    xp = cupy_device.xp
    k1 = cuda.elementwise('T x', 'T y', 'y = x * 2', 'double_it')
    assert k1 is cuda.elementwise('T x', 'T y', 'y = x * 2', 'double_it')  # memoized
    assert isinstance(k1, xp.ElementwiseKernel)
    assert isinstance(cuda.reduce('T x', 'T y', 'x', 'a + b', 'y = a', '0', 's'),
                      xp.ReductionKernel)
    assert isinstance(cuda.raw('extern "C" __global__ void k() {}', 'k'), xp.RawKernel)
    calls = []

    @cuda.memoize(for_each_device=True)
    def f(n):
        calls.append(n)
        return n * 2
    assert f(2) == 4 and f(2) == 4 and calls == [2]
    cuda.clear_memo()
    assert f(2) == 4 and calls == [2, 2]

    @cuda.fuse()
    def g(a, b):
        return a * b + 1
    d = cupy_device.send(numpy.ones(2))
    assert cuda.to_cpu(g(d, d)).tolist() == [2.0, 2.0]
    assert g(numpy.ones(2), numpy.ones(2)).tolist() == [2.0, 2.0]


def test_cupy_config_cudnn_settings_accepted(cupy_device):
    for key, value in (('use_cudnn', 'never'), ('use_cudnn', 'always'),
                       ('cudnn_deterministic', True), ('autotune', True),
                       ('use_cudnn_tensor_core', 'never')):
        with minichainer.using_config(key, value):
            assert getattr(minichainer.config, key) == value
            assert cuda.should_use_cudnn('>=auto') is False


def test_cupy_copyto_across_devices(cupy_device):
    xp = cupy_device.xp
    d = xp.zeros((2, 2), numpy.float32)
    backend.copyto(d, numpy.ones((2, 2), numpy.float32))
    assert cuda.to_cpu(d).tolist() == [[1, 1], [1, 1]]
    backend.copyto(d, numpy.arange(2, dtype=numpy.float64))  # broadcast and cast
    assert cuda.to_cpu(d).tolist() == [[0, 1], [0, 1]]
    backend.copyto(d, xp.full((2, 2), 3, numpy.float32))
    h = numpy.zeros((2, 2), numpy.float32)
    backend.copyto(h, d)
    assert h.tolist() == [[3, 3], [3, 3]]
    assert not backend._contains_nan(d)
    d[0, 0] = numpy.nan
    assert backend._contains_nan(d)


def test_cupy_chainer_device_of_minichainer_testing(cupy_device):
    # chainer.testing's BackendConfig / get_device helpers see the GPU as Chainer's do
    import minichainer.distributed.testing as mn_testing
    assert str(mn_testing.get_device(0)) == '@cupy:0'


def test_cupy_cuda_submodule_alias(cupy_device):
    # `chainer.backends.cuda.cuda` is `cupy.cuda` (Chainer does `from cupy import cuda`)
    assert cuda.cuda is cupy_device.xp.cuda
    assert cuda.cuda.Device(0) == cupy_device.device


def test_cuda_submodule_absent_without_cupy(no_cupy):
    with pytest.raises(AttributeError):
        cuda.cuda


def test_cupy_runtime_info(cupy_device):
    import io
    out = io.StringIO()
    minichainer.print_runtime_info(out)
    text = out.getvalue()
    assert 'CuPy:\n  ' in text and 'CuPy: Not Available' not in text
