import numpy
import pytest

import minichainer.functions as F
from minichainer.utils import type_check


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
@pytest.mark.parametrize('shapes', [
    [(), ()], [(3,), (3,)], [(2, 3), (1, 3)], [(2, 3, 4), (3, 3, 4)], [(4,)], [(2, 2)],
])
def test_vstack(dtype, shapes, check_grads):
    xs = [numpy.asarray(numpy.random.uniform(-1, 1, s), dtype=dtype) for s in shapes]
    y = F.vstack(xs)
    expected = numpy.vstack(xs)
    numpy.testing.assert_array_equal(y.array, expected)

    def f(*xs):
        return F.vstack(xs)
    gy = numpy.asarray(numpy.random.uniform(-1, 1, expected.shape), dtype=dtype)
    ggxs = [numpy.asarray(numpy.random.uniform(-1, 1, s), dtype=dtype) for s in shapes]
    check_grads(f, xs, gy, ggxs, dtype)


@pytest.mark.parametrize('shapes', [[(2, 3), (2, 4)], [(2,), (3,)]])
def test_vstack_invalid(shapes):
    with pytest.raises(type_check.InvalidType):
        F.vstack([numpy.zeros(s, numpy.float32) for s in shapes])
