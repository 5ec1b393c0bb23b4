import numpy
import pytest

import minichainer
import minichainer.functions as F
from minichainer import gradient_check
from minichainer.utils import type_check

from ._helpers import FLOAT_DTYPES, bwd_opts, fwd_tol, uniform


@pytest.mark.parametrize('dtype', FLOAT_DTYPES)
@pytest.mark.parametrize('w_shape', [(3,), (3, 4), ()])
def test_prelu(dtype, w_shape):
    x = uniform((2, 3, 4), dtype, kinks=(0.,))
    W = numpy.asarray(numpy.random.RandomState(1).uniform(-1, 1, w_shape), dtype)
    y = F.prelu(x, W)
    assert y.dtype == dtype
    Wb = W.reshape((1,) + W.shape + (1,) * (x.ndim - W.ndim - 1))
    numpy.testing.assert_allclose(y.array, numpy.where(x >= 0, x, x * Wb), **fwd_tol(dtype))
    rng = numpy.random.RandomState(2)
    gy = rng.uniform(-1, 1, x.shape).astype(dtype)
    f = F.prelu
    if W.ndim == 0:
        # gradient_check cannot perturb 0-dim inputs; feed W as (1,) and reshape inside
        W = W.reshape(1)

        def f(x, W):
            return F.prelu(x, F.reshape(W, ()))
    gradient_check.check_backward(f, (x, W), gy, **bwd_opts(dtype))
    ggx = rng.uniform(-1, 1, x.shape).astype(dtype)
    ggW = rng.uniform(-1, 1, W.shape).astype(dtype)
    gradient_check.check_double_backward(f, (x, W), gy, (ggx, ggW), **bwd_opts(dtype))


def test_prelu_shape_mismatch():
    with pytest.raises(type_check.InvalidType):
        F.prelu(numpy.zeros((2, 3), numpy.float32), numpy.zeros((2,), numpy.float32))


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
def test_prelu_equals_chainers_masked_form(dtype):
    # Chainer: y = x.copy(); y[x < 0] *= W; gW = sum(where(x >= 0, 0, x * gy));
    # gx = where(x >= 0, gy, gy * W) (here without masked selects)
    rng = numpy.random.RandomState(31)
    x = rng.uniform(-3, 3, (6, 4, 5)).astype(dtype)
    x.flat[:4] = [0.0, -0.0, 1e-3, -1e-3]
    W = rng.uniform(-0.5, 0.5, 4).astype(dtype)
    gy = rng.uniform(-1, 1, x.shape).astype(dtype)
    Wb = W.reshape(1, 4, 1)
    xv, wv = minichainer.Variable(x), minichainer.Variable(W)
    y = F.prelu(xv, wv)
    expect = x.copy()
    expect[x < 0] *= numpy.broadcast_to(Wb, x.shape)[x < 0]
    numpy.testing.assert_array_equal(y.array, expect)
    y.grad = gy
    y.backward()
    numpy.testing.assert_array_equal(xv.grad, numpy.where(x >= 0, gy, gy * Wb))
    numpy.testing.assert_array_equal(
        wv.grad, numpy.where(x >= 0, 0, x * gy).sum(axis=(0, 2)).astype(dtype))
