"""``chainer.backends.cuda`` where CuPy cannot be used (``no_cupy``: also on a GPU machine)."""
import warnings

import numpy
import pytest

import minichainer
from minichainer.backends import cuda
from minichainer.backends import intel64

pytestmark = pytest.mark.usefixtures('no_cupy')


def test_flags():
    assert cuda.available is False
    assert cuda.cudnn_enabled is False
    assert cuda.cupy is not None  # Chainer's own tests require a placeholder
    assert numpy is not cuda.cupy
    with pytest.raises(AttributeError, match='CuPy is not available'):
        cuda.cupy.random
    assert not hasattr(cuda.cupy, 'ndarray')
    assert minichainer.cuda is cuda
    assert not isinstance(None, cuda.ndarray)
    assert not isinstance(numpy.zeros(1), cuda.ndarray)


def test_to_cpu_scalars_and_variable():
    for value in (numpy.bool_(True), numpy.int8(3), numpy.float16(3.2),
                  numpy.complex128(3.2 - 2.4j)):
        y = cuda.to_cpu(value)
        assert isinstance(y, numpy.ndarray) and y.shape == () and y.dtype == value.dtype
    with pytest.raises(TypeError):
        cuda.to_cpu(minichainer.Variable(numpy.zeros(2)))


def test_to_cpu_and_to_gpu():
    x = numpy.arange(3)
    assert cuda.to_cpu(x) is x
    assert cuda.to_cpu(None) is None
    out = cuda.to_cpu([x, None, (x,)])
    assert out[0] is x and out[1] is None and out[2][0] is x
    assert isinstance(cuda.to_cpu(numpy.float32(1)), numpy.ndarray)
    with pytest.raises(RuntimeError, match='no GPU backend'):
        cuda.to_gpu(x)
    with pytest.raises(RuntimeError, match='no GPU backend'):
        cuda.copy(x)


def test_devices():
    assert cuda.get_device_from_id(None) is cuda.DummyDevice
    assert cuda.get_device_from_id(-1) is cuda.DummyDevice
    with pytest.raises(RuntimeError, match='no GPU backend'):
        cuda.get_device_from_id(0)
    assert cuda.get_device_from_array(numpy.zeros(1)) is cuda.DummyDevice
    with cuda.DummyDevice as d:
        assert d is cuda.DummyDevice
    assert int(cuda.DummyDevice) == -1
    assert cuda.DummyDevice == cuda.DummyDeviceType()
    cuda.DummyDevice.use()
    cuda.DummyDevice.synchronize()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        assert cuda.get_device(-1) is cuda.DummyDevice
    assert any(issubclass(w.category, DeprecationWarning) for w in caught)
    with cuda.using_device(-1):
        pass
    with pytest.raises(RuntimeError, match='CUDA'):
        cuda.check_cuda_available()


def test_helpers():
    assert cuda.get_array_module(numpy.zeros(1)) is numpy
    assert cuda.should_use_cudnn('>=auto') is False

    @cuda.memoize()
    def f():
        return 3
    assert f() == 3
    # without CuPy the fused function is the Python function (decided at call time, so
    # that decorating at import time never imports CuPy)
    assert cuda.fuse()(f)() == 3 and cuda.fuse(f)() == 3
    with pytest.raises(RuntimeError):
        cuda.elementwise('T x', 'T y', 'y = x', 'k')


def test_intel64():
    assert intel64.is_ideep_available() is False
    assert intel64.should_use_ideep('>=auto') is False
    with pytest.raises(RuntimeError, match='iDeep'):
        intel64.check_ideep_available()
