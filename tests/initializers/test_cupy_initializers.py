"""Initializers on `@cupy:0` arrays (the CuPy test double in CI, real CuPy with
MINICHAINER_TEST_REAL_CUPY=1): drawn on the device from `cupy.random` (reproducible by
seeding it), host-made values copied once, the same values as on the CPU where the source
is the same."""
import numpy
import pytest

from minichainer import backend
from minichainer import initializers as I
from minichainer import links as L
from minichainer.backends import cuda

RANDOM = [
    ('Normal', lambda **k: I.Normal(0.5, **k)),
    ('LeCunNormal', lambda **k: I.LeCunNormal(**k)),
    ('GlorotNormal', lambda **k: I.GlorotNormal(**k)),
    ('HeNormal', lambda **k: I.HeNormal(**k)),
    ('Uniform', lambda **k: I.Uniform(0.5, **k)),
    ('LeCunUniform', lambda **k: I.LeCunUniform(**k)),
    ('GlorotUniform', lambda **k: I.GlorotUniform(**k)),
    ('HeUniform', lambda **k: I.HeUniform(**k)),
]


def _host(array):
    return backend.CpuDevice().send(array)


def _no_host_copy():
    return cuda.cupyx.allow_synchronize(False)


@pytest.mark.parametrize('make', [m for _, m in RANDOM], ids=[n for n, _ in RANDOM])
def test_random_initializer_draws_on_cupy_reproducibly(cupy_device, make):
    xp = cupy_device.xp
    numpy_state = numpy.random.get_state()[1].copy()
    arrays = []
    for _ in range(2):
        xp.random.seed(3)
        a = xp.empty((40, 30), dtype=numpy.float32)
        with _no_host_copy():
            make()(a)
        assert isinstance(a, xp.ndarray) and a.dtype == numpy.float32
        arrays.append(_host(a))
    numpy.testing.assert_array_equal(arrays[0], arrays[1])   # seeded: the same weights
    assert numpy.array_equal(numpy.random.get_state()[1], numpy_state)  # numpy untouched
    assert arrays[0].std() > 0.01 and numpy.isfinite(arrays[0]).all()
    xp.random.seed(4)
    b = xp.empty((40, 30), dtype=numpy.float32)
    make()(b)
    assert not numpy.array_equal(_host(b), arrays[0])


@pytest.mark.parametrize('make', [m for _, m in RANDOM], ids=[n for n, _ in RANDOM])
def test_initializer_with_host_rng_on_cupy_equals_cpu(cupy_device, make):
    xp = cupy_device.xp
    cpu = numpy.empty((6, 5), dtype=numpy.float32)
    make(rng=numpy.random.RandomState(7))(cpu)
    gpu = xp.empty((6, 5), dtype=numpy.float32)
    make(rng=numpy.random.RandomState(7))(gpu)
    assert isinstance(gpu, xp.ndarray)
    numpy.testing.assert_array_equal(_host(gpu), cpu)


def test_single_precision_initializer_asks_cupy_for_float32(cupy_device):
    xp = cupy_device.xp
    xp.random.seed(1)
    a = xp.empty((5, 5), dtype=numpy.float16)
    I.Normal(1.0, dtype=numpy.float16)(a)
    xp.random.seed(1)
    expected = xp.random.normal(loc=0.0, scale=1.0, size=(5, 5), dtype=numpy.float32)
    numpy.testing.assert_array_equal(_host(a), _host(expected).astype(numpy.float16))


DETERMINISTIC = [
    ('Constant-scalar', lambda: I.Constant(2.5), (3, 4)),
    ('Constant-array', lambda: I.Constant(numpy.arange(4, dtype=numpy.float32)), (3, 4)),
    ('Zero', I.Zero, (3, 4)),
    ('One', I.One, (3, 4)),
    ('Identity', lambda: I.Identity(scale=2.0), (4, 4)),
    ('Orthogonal', lambda: I.Orthogonal(), (4, 6)),
    ('UpsamplingDeconvFilter', I.UpsamplingDeconvFilter, (3, 3, 4, 4)),
    ('DownsamplingConvFilter', I.DownsamplingConvFilter, (2, 1, 3, 3)),
]


@pytest.mark.parametrize('make,shape', [(m, s) for _, m, s in DETERMINISTIC],
                         ids=[n for n, _, _ in DETERMINISTIC])
def test_initializer_on_cupy_equals_cpu(cupy_device, make, shape):
    xp = cupy_device.xp
    numpy.random.seed(5)  # Orthogonal draws on the host, from numpy's generator, as Chainer
    cpu = numpy.empty(shape, dtype=numpy.float32)
    make()(cpu)
    numpy.random.seed(5)
    gpu = xp.empty(shape, dtype=numpy.float32)
    make()(gpu)
    assert isinstance(gpu, xp.ndarray)
    numpy.testing.assert_allclose(_host(gpu), cpu, rtol=1e-6, atol=1e-7)


def test_constant_from_a_device_array_into_a_host_array(cupy_device):
    value = cupy_device.send(numpy.arange(3, dtype=numpy.float32))
    out = numpy.empty((2, 3), dtype=numpy.float32)
    I.Constant(value)(out)
    numpy.testing.assert_array_equal(out, [[0, 1, 2], [0, 1, 2]])


def test_generate_array_on_cupy(cupy_device):
    xp = cupy_device.xp
    a = I.generate_array(I.One(), (2, 3), xp, device=cupy_device)
    assert isinstance(a, xp.ndarray) and a.dtype == numpy.float32
    numpy.testing.assert_array_equal(_host(a), numpy.ones((2, 3)))
    with pytest.raises(ValueError, match='inconsistent'):
        I.generate_array(I.One(), (2, 3), numpy, device=cupy_device)


def test_link_initialized_lazily_on_cupy_draws_from_cupy_random(cupy_device):
    xp = cupy_device.xp
    x = cupy_device.send(numpy.ones((2, 5), dtype=numpy.float32))
    weights = []
    for _ in range(2):
        link = L.Linear(None, 3)
        link.to_device(cupy_device)
        xp.random.seed(11)
        link(x)
        assert isinstance(link.W.array, xp.ndarray)
        weights.append(_host(link.W.array))
    numpy.testing.assert_array_equal(weights[0], weights[1])
    assert weights[0].std() > 0
