import numpy
import pytest

import minichainer.functions as F
from minichainer import gradient_check
from minichainer.utils import type_check


def _ref(e1, e2, W, V1=None, V2=None, b=None):
    e1 = e1.reshape(len(e1), -1)
    e2 = e2.reshape(len(e2), -1)
    y = numpy.einsum('ij,ik,jkl->il', e1, e2, W)
    if V1 is not None:
        y = y + e1.dot(V1) + e2.dot(V2) + b
    return y


@pytest.mark.parametrize('full', [False, True])
def test_bilinear(full):
    rng = numpy.random.RandomState(0)
    e1 = rng.uniform(-1, 1, (3, 2, 2))
    e2 = rng.uniform(-1, 1, (3, 3))
    W = rng.uniform(-1, 1, (4, 3, 2))
    params = (rng.uniform(-1, 1, (4, 2)), rng.uniform(-1, 1, (3, 2)),
              rng.uniform(-1, 1, 2)) if full else ()
    y = F.bilinear(e1, e2, W, *params)
    numpy.testing.assert_allclose(y.array, _ref(e1, e2, W, *params), rtol=1e-12)
    args = (e1, e2, W) + params
    gy = rng.uniform(-1, 1, (3, 2))
    gradient_check.check_backward(F.bilinear, args, gy, atol=1e-7, rtol=1e-6)
    ggs = tuple(rng.uniform(-1, 1, a.shape) for a in args)
    gradient_check.check_double_backward(F.bilinear, args, gy, ggs, atol=1e-7, rtol=1e-6)


def test_bilinear_float32_and_errors():
    e1 = numpy.ones((2, 3), 'f')
    e2 = numpy.ones((2, 4), 'f')
    W = numpy.ones((3, 4, 5), 'f')
    y = F.bilinear(e1, e2, W)
    assert y.dtype == numpy.float32
    numpy.testing.assert_allclose(y.array, 12 * numpy.ones((2, 5)))
    with pytest.raises(ValueError):
        F.bilinear(e1, e2, W, numpy.ones((3, 5), 'f'))
    with pytest.raises(type_check.InvalidType):
        F.bilinear(e1, e2, numpy.ones((3, 3, 5), 'f'))
