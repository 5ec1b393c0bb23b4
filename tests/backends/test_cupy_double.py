"""The CuPy test double's own contract: it fails where CuPy fails (tests/cupy_double).

These tests use the double directly (not through the fixture) except where they say so;
they are about the double, so they do not run on real CuPy.
"""
import pickle

import numpy
import pytest

import cupy_double

cp = cupy_double.cupy
cpx = cupy_double.cupyx


@pytest.fixture(autouse=True)
def _fresh_double():
    cupy_double.reset()
    yield
    cupy_double.reset()


def test_cupy_array_is_not_a_numpy_array():
    x = cp.arange(6, dtype=cp.float32).reshape(2, 3)
    assert type(x) is cp.ndarray and not isinstance(x, numpy.ndarray)
    assert type(x).__module__ == 'cupy' and type(x).__name__ == 'ndarray'
    assert x.shape == (2, 3) and x.dtype == numpy.float32 and x.ndim == 2 and x.size == 6
    assert x.device.id == 0


@pytest.mark.parametrize('convert', [
    numpy.asarray, numpy.array, lambda x: numpy.testing.assert_allclose(x, 0),
    lambda x: numpy.asarray([x, x]), lambda x: numpy.float32(1) * numpy.ones(2) + x.get()
    + numpy.asarray(x)])
def test_cupy_implicit_conversion_raises(convert):
    x = cp.zeros(2)
    with pytest.raises(TypeError, match='Implicit conversion to a NumPy array is not allowed'):
        convert(x)


@pytest.mark.parametrize('op', [
    lambda x, h: x + h, lambda x, h: h + x, lambda x, h: x * h, lambda x, h: h - x,
    lambda x, h: numpy.add(x, h), lambda x, h: cp.maximum(x, h),
    lambda x, h: cp.concatenate([x, h]), lambda x, h: cp.dot(x, h),
    lambda x, h: cp.where(h > 0, x, x), lambda x, h: x.__iadd__(h),
    lambda x, h: x + numpy.asarray(2.0)])
def test_cupy_mixing_a_numpy_array_raises(op):
    x = cp.ones(3)
    h = numpy.ones(3)
    with pytest.raises(TypeError, match="Unsupported type <class 'numpy.ndarray'>"):
        op(x, h)


def test_cupy_scalars_mix_fine_and_results_stay_on_device():
    x = cp.ones(3, dtype=cp.float32)
    for y in (x + 1, 2.0 * x, x * numpy.float32(3), numpy.float32(3) * x, -x, abs(x),
              x ** 2, x / 2, x // 1, x % 2, x @ x, numpy.exp(x), numpy.sum(x), x.sum(),
              x[0], x > 0):
        assert type(y) is cp.ndarray
    assert (x + 1).dtype == numpy.float32  # NumPy 2 promotion: Python scalars are weak
    assert x.sum().shape == () and x[1].shape == ()  # 0-dim arrays, not scalars


def test_cupy_numpy_functions_dispatch_only_to_cupy_names():
    x = cp.arange(4.0)
    assert type(numpy.ones_like(x)) is cp.ndarray
    assert type(numpy.concatenate([x, x])) is cp.ndarray
    assert type(numpy.linalg.norm(x)) is cp.ndarray
    for np_only in (lambda: numpy.insert(x, 0, 1.0), lambda: numpy.spacing(x),
                    lambda: numpy.nanquantile(x, 0.5)):
        with pytest.raises(TypeError):
            np_only()
    assert not hasattr(cp, 'insert') and not hasattr(cp, 'errstate')
    assert hasattr(cp, 'einsum') and hasattr(cp, 'take_along_axis')


def test_cupy_ufunc_methods_as_cupy_14():
    z = cp.zeros(4)
    numpy.add.at(z, numpy.array([0, 0, 2]), cp.ones(3))
    cp.add.at(z, cp.array([1]), 5.0)
    cp.maximum.at(z, cp.array([3]), 7.0)
    assert z.get().tolist() == [2.0, 5.0, 1.0, 7.0]
    with pytest.raises(NotImplementedError, match='multiply.at'):
        cp.multiply.at(z, cp.array([0]), 2.0)
    assert float(cp.add.reduce(z)) == 15.0
    with pytest.raises(NotImplementedError):
        cp.maximum.reduce(z)
    assert cp.add.reduceat(z, [0, 2]).get().tolist() == [7.0, 8.0]
    assert cp.multiply.outer(cp.arange(2), cp.arange(3)).shape == (2, 3)
    t = cp.zeros(3)
    cpx.scatter_add(t, cp.array([0, 0, 2]), cp.ones(3))
    assert t.get().tolist() == [2.0, 0.0, 1.0]


def test_cupy_host_transfer_counter():
    x = cp.arange(4.0)
    assert cupy_double.host_transfers() == 0
    y = (x * 2).sum()  # no host copy
    assert cupy_double.host_transfers() == 0
    assert float(y) == 12.0
    x.get()
    cp.asnumpy(x)
    x[0].item()
    x.tolist()
    bool(x[1] > 0)
    repr(x)
    pickle.loads(pickle.dumps(x))
    assert cupy_double.host_transfers() == 8


@pytest.mark.parametrize('transfer', [
    lambda x: x.get(), lambda x: cp.asnumpy(x), lambda x: float(x[0]), lambda x: int(x[0]),
    lambda x: x[0].item(), lambda x: x.tolist(), lambda x: bool((x > 0).any()),
    lambda x: str(x), lambda x: '{}'.format(x), lambda x: pickle.dumps(x)])
def test_cupy_forbid_host_transfer(transfer):
    x = cp.arange(3.0)
    with cupy_double.forbid_host_transfer():
        y = cp.exp(x) * 2  # device work is fine
        with pytest.raises(cupy_double.DeviceSynchronized, match='device-to-host'):
            transfer(y)
    transfer(x)  # allowed again after the block
    assert isinstance(cupy_double.DeviceSynchronized(), RuntimeError)


def test_cupy_host_to_device_is_allowed_where_cupy_allows_it():
    x = cp.zeros((2, 3))
    x[0] = numpy.arange(3.0)
    x[numpy.array([1])] = 7.0
    assert x[numpy.array([0, 1]), 1].get().tolist() == [1.0, 7.0]
    x.set(numpy.ones((2, 3)))
    cp.copyto(x, numpy.full((2, 3), 2.0))
    assert cp.asarray(numpy.ones(2)).get().tolist() == [1.0, 1.0]
    assert type(cp.zeros_like(numpy.ones(2))) is cp.ndarray
    with pytest.raises(TypeError):
        x.set(numpy.ones((2, 3), numpy.float32))


@pytest.mark.parametrize('make', [
    lambda: cp.array(['a', 'b']), lambda: cp.array([object()]),
    lambda: cp.asarray(numpy.zeros(2, numpy.longdouble)), lambda: cp.ndarray((2,), 'U3'),
    lambda: cp.array(numpy.array(['2020-01-01'], 'datetime64[D]'))])
def test_cupy_unsupported_dtypes_raise(make):
    with pytest.raises(TypeError, match='Unsupported dtype'):
        make()


def test_cupy_asarray_keeps_device_arrays_and_array_copies():
    x = cp.ones(3)
    assert cp.asarray(x) is x
    assert cp.array(x) is not x
    assert cp.ascontiguousarray(x) is x
    y = cp.asarray(x, dtype=cp.float32)
    assert y is not x and y.dtype == numpy.float32
    v = x[1:]
    v += 1
    assert x.get().tolist() == [1.0, 2.0, 2.0]  # views share the device memory


def test_cupy_devices_and_out_of_range_ids():
    assert cp.cuda.runtime.getDeviceCount() == 1
    with pytest.raises(cp.cuda.runtime.CUDARuntimeError, match='invalid device ordinal'):
        cp.cuda.Device(1).use()
    cupy_double.set_device_count(2)
    a = cp.ones(2)
    with cp.cuda.Device(1):
        b = cp.ones(2)
        assert b.device.id == 1 and cp.cuda.get_device_id() == 1
        with pytest.raises(ValueError, match=r'device where the array resides \(0\)'):
            a + b
        c = cp.array(a)  # an explicit copy to the current device
        assert c.device.id == 1
    with pytest.raises(ValueError, match='current device'):
        b * 2
    assert cp.cuda.Device(0) == a.device and cp.cuda.Device(1) != a.device


def test_cupy_random_is_per_device_and_reproducible():
    cp.random.seed(3)
    a = cp.random.uniform(size=4).get()
    numpy.random.seed(3)  # the NumPy global generator is not the device's
    b = cp.random.uniform(size=4).get()
    cp.random.seed(3)
    assert (cp.random.uniform(size=4).get() == a).all() and not (b == a).all()
    x = cp.random.normal(0, 1, (2, 2), dtype=numpy.float32)
    assert type(x) is cp.ndarray and x.dtype == numpy.float32
    rs = cp.random.RandomState(0)
    assert rs.randn(3).shape == (3,) and rs.gamma(2.0, size=2).shape == (2,)
    assert cp.random.get_random_state() is cp.random.get_random_state()


def test_cupy_kernels_cannot_run_and_out_of_memory():
    kernel = cp.ElementwiseKernel('T x', 'T y', 'y = x', 'copy_kernel')
    with pytest.raises(NotImplementedError, match='copy_kernel'):
        kernel(cp.ones(2))
    with cupy_double.out_of_memory():
        with pytest.raises(cp.cuda.memory.OutOfMemoryError, match='Out of memory allocating'):
            cp.zeros(10)
    assert cp.zeros(10).shape == (10,)


def test_cupy_get_array_module_fuse_testing():
    x = cp.ones(2)
    assert cp.get_array_module(x) is cp and cp.get_array_module(numpy.ones(2)) is numpy

    @cp.fuse()
    def f(a, b):
        return a * b + 1
    assert f(x, x).get().tolist() == [2.0, 2.0]
    cp.testing.assert_allclose(x, numpy.ones(2))
    with pytest.raises(AssertionError):
        cp.testing.assert_array_equal(x, numpy.zeros(2))


def test_cupy_double_installs_and_uninstalls(cupy_device):
    import sys
    from minichainer.backends import cuda
    if not cupy_double.is_double(cupy_device.xp):
        pytest.skip('real CuPy run')
    assert sys.modules['cupy'] is cupy_double.cupy and sys.modules['cupyx'] is cpx
    assert cuda.available and cuda.cupy is cp and cuda.cupyx is cpx
    assert cuda.ndarray is cp.ndarray and cuda.Device is cp.cuda.Device


def test_cupy_double_left_nothing_behind():
    # runs after the test above (file order): the CPU-only state is back
    import sys
    from minichainer.backends import cuda
    assert sys.modules.get('cupy') is not cp and sys.modules.get('cupyx') is not cpx
    assert cuda.cupy is not cp and cuda.cupy_state.ndarray is not cp.ndarray
    assert not any(m is cp or m is cpx for name, m in sys.modules.items()
                   if not name.startswith('cupy_double'))
