"""Devices on the CPU: get_device specs, Device objects, using_device, copyto, errors.

Tests of the errors of GPU requests take the ``no_cupy`` fixture, which makes CuPy
unusable for the test (so they hold on a GPU machine too); GPU devices are tested in
tests/backends/test_cupy_*.py."""
import numpy
import pytest

import minichainer
from minichainer import backend
from minichainer.backends import cuda


@pytest.mark.parametrize('spec', ['@numpy', -1, '-1', numpy, numpy.int64(-1), -3])
def test_get_device_cpu_specs(spec):
    device = backend.get_device(spec)
    assert isinstance(device, backend.CpuDevice)
    assert device.xp is numpy
    assert device.name == '@numpy'
    assert str(device) == '@numpy'
    assert repr(device) == '<CpuDevice (numpy)>'


def test_get_device_returns_device_as_is():
    device = backend.CpuDevice()
    assert backend.get_device(device) is device
    assert minichainer.get_device is backend.get_device


def test_device_equality_and_hash():
    a = backend.get_device('@numpy')
    b = backend.get_device(-1)
    assert a == b and not (a != b)
    assert hash(a) == hash(b)
    assert a != 'foo'
    assert len({a, b}) == 1


@pytest.mark.parametrize('spec', [0, 1, '0', '@cupy:0', numpy.int32(2)])
def test_gpu_specs_raise_clear_error(spec, no_cupy):
    with pytest.raises(RuntimeError, match='GPU|CuPy'):
        backend.get_device(spec)


@pytest.mark.parametrize('spec', ['native:0', 'cuda:0', 'native'])
def test_chainerx_specs_raise_clear_error(spec):
    with pytest.raises(RuntimeError, match='ChainerX'):
        backend.get_device(spec)


@pytest.mark.parametrize('spec,match', [
    (('native', 0), 'ChainerX'), (('native', 'foo'), 'ChainerX'), (('cuda.cupy', 0), 'CuPy')])
def test_tuple_specs_raise_clear_error(spec, match, no_cupy):
    if spec[0] == 'cuda.cupy':  # read under no_cupy (not when the test is collected)
        spec = (cuda.cupy, spec[1])
    with pytest.raises(RuntimeError, match=match):
        backend.get_device(spec)
    with pytest.raises(RuntimeError, match=match):
        backend.using_device(spec)


@pytest.mark.parametrize('value', [numpy.int64(1), None, 1, (), object()])
def test_get_device_from_array_falls_back_to_cpu(value):
    assert backend.get_device_from_array(value) == backend.CpuDevice()


def test_intel64_spec_raises():
    with pytest.raises(RuntimeError, match='iDeep'):
        backend.get_device('@intel64')


@pytest.mark.parametrize('spec', ['@numpy:0', '@foo', '@cupy'])
def test_malformed_at_specs_raise_value_error(spec):
    with pytest.raises(ValueError, match='@'):
        backend.get_device(spec)


@pytest.mark.parametrize('spec', [None, 1.5, True, [0]])
def test_other_types_raise_type_error(spec):
    with pytest.raises(TypeError, match='device_spec'):
        backend.get_device(spec)


def test_cuda_dummy_device_is_not_a_device_spec(no_cupy):
    # Chainer raises TypeError for it (functions.copy accepts it, as there)
    with pytest.raises(TypeError, match='DummyDevice'):
        backend.get_device(cuda.DummyDevice)
    with pytest.raises(RuntimeError, match='CuPy'):
        backend.get_device(cuda.Device())


def test_send_nested_arrays_and_identity():
    device = backend.CpuDevice()
    a = numpy.arange(3)
    out = device.send((a, [a, None], {'k': a}))
    assert out[0] is a and out[1][0] is a and out[1][1] is None and out[2]['k'] is a
    assert isinstance(device.send(numpy.float32(2)), numpy.ndarray)
    assert device.send([1.0, 2.0])[0].shape == ()


def test_send_rejects_non_arrays():
    with pytest.raises(TypeError, match='numpy.ndarray'):
        backend.CpuDevice().send(object())


def test_device_use_and_with_statement():
    device = backend.get_device('@numpy')
    device.use()
    with pytest.raises(RuntimeError, match='using_device'):
        with device:
            pass


def test_using_device(no_cupy):
    assert backend.get_current_device() == backend.CpuDevice()
    with minichainer.using_device('@numpy') as device:
        assert device == backend.CpuDevice()
        assert backend.get_current_device() is device
    with pytest.raises(RuntimeError):
        with backend.using_device(0):
            pass


def test_get_array_module_and_device_from_array(no_cupy):
    x = numpy.zeros(2)
    assert backend.get_array_module(x) is numpy
    assert backend.get_array_module(minichainer.Variable(x)) is numpy
    assert backend.get_device_from_array(x) == backend.CpuDevice()
    assert backend.CpuDevice.from_array(x) == backend.CpuDevice()
    assert backend.CpuDevice.from_array([1]) is None
    assert backend.GpuDevice.from_array(x) is None
    assert backend.is_arrays_compatible([x, None, numpy.ones(1)])
    assert not backend.is_arrays_compatible([x, [1]])
    assert backend.get_array_types() == (numpy.ndarray,)


def test_copyto():
    dst = numpy.zeros((2, 3), numpy.float32)
    backend.copyto(dst, numpy.arange(3))
    numpy.testing.assert_array_equal(dst, [[0, 1, 2], [0, 1, 2]])
    backend.copyto(dst, 7)
    assert (dst == 7).all()
    with pytest.raises(TypeError, match='dst'):
        backend.copyto([0], numpy.zeros(1))
    with pytest.raises(TypeError, match='src'):
        backend.copyto(dst, None)


def test_unavailable_device_classes(no_cupy):
    with pytest.raises(RuntimeError, match='GPU'):
        backend.GpuDevice.from_device_id(0)
    with pytest.raises(RuntimeError, match='iDeep'):
        backend.Intel64Device()
    with pytest.raises(RuntimeError, match='ChainerX'):
        backend.ChainerxDevice(None)
    with pytest.raises(RuntimeError, match='ChainerX'):
        backend.to_chx(numpy.zeros(1))
    x = numpy.zeros(1)
    assert backend.from_chx(x) is x


def test_contains_nan():
    assert backend._contains_nan(numpy.array([1.0, numpy.nan]))
    assert not backend._contains_nan(numpy.array([1, 2]))


def test_link_to_device_and_variable_to_device(no_cupy):
    import minichainer.links as L
    link = L.Linear(2, 3)
    assert link.to_device('@numpy') is link
    assert link.device == backend.CpuDevice()
    assert link.xp is numpy
    link.to_device(-1)
    with pytest.raises(RuntimeError, match='GPU'):
        link.to_device(0)
    with pytest.raises(RuntimeError), pytest.deprecated_call(match='to_gpu'):
        link.to_gpu()
    v = minichainer.Variable(numpy.zeros(2))
    v.to_device('@numpy')
    assert v.device == backend.CpuDevice()


def test_dtype_config_including_mixed16():
    assert minichainer.get_dtype() == numpy.float32
    with minichainer.using_config('dtype', numpy.float16):
        assert minichainer.get_dtype() == numpy.float16
    with minichainer.using_config('dtype', minichainer.mixed16):
        assert minichainer.get_dtype() == numpy.float16
        assert minichainer.get_dtype(map_mixed16=numpy.float32) == numpy.float32
    assert minichainer.get_dtype(numpy.float64) == numpy.float64


def test_backend_chainerx_is_the_stub_and_types_module_exists():
    import minichainer
    from minichainer import backend
    from minichainer._compat import chainerx_stub
    assert backend.chainerx is chainerx_stub.get_module()
    assert not backend.chainerx.is_available()
    assert backend.get_array_module(numpy.ones(1)) is not backend.chainerx
    assert minichainer.types.ShapeSpec is not None


def test_chainer_basic_math_alias():
    import minichainer
    from minichainer.functions.math import basic_math
    assert minichainer.basic_math is basic_math
