import numpy
import pytest

import minichainer.functions as F
from minichainer import gradient_check


def _softmax(x, axis):
    e = numpy.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
@pytest.mark.parametrize('axis', [1, 0])
def test_gumbel_softmax_forward(dtype, axis):
    log_pi = numpy.log(numpy.random.RandomState(0).uniform(0.1, 1, (3, 4))).astype(dtype)
    numpy.random.seed(4)
    y = F.gumbel_softmax(log_pi, tau=0.5, axis=axis)
    numpy.random.seed(4)
    g = numpy.random.gumbel(size=(3, 4)).astype(dtype)
    ref = _softmax((log_pi + g).astype(numpy.float64) / 0.5, axis)
    assert y.dtype == dtype and y.shape == (3, 4)
    tol = 1e-2 if dtype == numpy.float16 else 1e-5
    numpy.testing.assert_allclose(y.array, ref, rtol=tol, atol=tol)


def test_gumbel_softmax_0dim():
    y = F.gumbel_softmax(numpy.array(0.3, numpy.float32))
    assert y.shape == () and y.array == 1


def test_gumbel_softmax_backward():
    rng = numpy.random.RandomState(1)
    log_pi = rng.uniform(-1, 1, (2, 3))
    gy = rng.uniform(-1, 1, (2, 3))

    def f(x):
        numpy.random.seed(9)  # the same noise for each evaluation
        return F.gumbel_softmax(x, tau=1.0)
    gradient_check.check_backward(f, log_pi, gy, atol=1e-6, rtol=1e-6)
