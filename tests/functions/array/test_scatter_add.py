import numpy
import pytest

import minichainer.functions as F
from minichainer.utils import type_check


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
@pytest.mark.parametrize('slices', [
    1, slice(0, 2), (slice(None), 1), (Ellipsis, 2), [0, 0, 2],
    (numpy.array([0, 1, 0]), numpy.array([2, 2, 2])), (None, slice(None), 0),
    ([1, 1], slice(1, 3)),
])
def test_scatter_add(dtype, slices, check_grads):
    a = numpy.asarray(numpy.random.uniform(-1, 1, (3, 4)), dtype=dtype)
    b_shape = a[slices if not isinstance(slices, list) else (slices,)].shape
    b = numpy.asarray(numpy.random.uniform(-1, 1, b_shape), dtype=dtype)
    y = F.scatter_add(a, slices, b)
    expected = a.copy()
    numpy.add.at(expected, slices if not isinstance(slices, list) else (slices,), b)
    assert y.dtype == dtype
    numpy.testing.assert_allclose(y.array, expected, rtol=1e-3)

    def f(a, b):
        return F.scatter_add(a, slices, b)
    gy = numpy.asarray(numpy.random.uniform(-1, 1, a.shape), dtype=dtype)
    gga = numpy.asarray(numpy.random.uniform(-1, 1, a.shape), dtype=dtype)
    ggb = numpy.asarray(numpy.random.uniform(-1, 1, b_shape), dtype=dtype)
    check_grads(f, (a, b), gy, (gga, ggb), dtype)


def test_scatter_add_repeated_indices_accumulate():
    a = numpy.zeros(3, numpy.float32)
    y = F.scatter_add(a, [0, 0, 2], numpy.ones(3, numpy.float32))
    numpy.testing.assert_array_equal(y.array, [2, 0, 1])
    assert a.sum() == 0  # the input is not modified


def test_scatter_add_shape_mismatch():
    with pytest.raises(ValueError, match='shape'):
        F.scatter_add(numpy.zeros((3, 4), numpy.float32), 0, numpy.zeros(3, numpy.float32))


def test_scatter_add_too_many_indices():
    with pytest.raises(type_check.InvalidType):
        F.scatter_add(numpy.zeros(3, numpy.float32), (0, 1), numpy.zeros((), numpy.float32))
