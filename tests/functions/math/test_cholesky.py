import numpy
import pytest

import minichainer.functions as F
from minichainer.utils import type_check

from _math_helpers import check_forward, check_grads


def spd(n, dtype, seed=0):
    a = numpy.random.RandomState(seed).uniform(-1, 1, (n, n))
    return (a @ a.T + n * numpy.eye(n)).astype(dtype)


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
def test_cholesky_forward(dtype):
    y = check_forward(F.cholesky, numpy.linalg.cholesky, (spd(3, dtype),), dtype)
    numpy.testing.assert_array_equal(numpy.triu(y.array, 1), 0)


@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
def test_cholesky_grad(dtype):
    # the gradient is defined for symmetric perturbations: check through a
    # symmetrising wrapper
    def f(a):
        return F.cholesky((a + a.T) * 0.5)

    check_grads(f, (spd(3, dtype),), dtype)


def test_cholesky_grad_is_symmetric():
    import minichainer
    a = minichainer.Variable(spd(3, numpy.float64))
    y = F.cholesky(a)
    y.grad = numpy.random.RandomState(3).uniform(-1, 1, (3, 3))
    y.backward()
    numpy.testing.assert_allclose(a.grad, a.grad.T, rtol=1e-12)


def test_cholesky_errors():
    with pytest.raises(numpy.linalg.LinAlgError):
        F.cholesky(-numpy.eye(2, dtype=numpy.float32))
    with pytest.raises(type_check.InvalidType):
        F.cholesky(numpy.eye(2, dtype=numpy.int32))
