import numpy
import pytest

import minichainer.functions as F
from minichainer import gradient_check
from minichainer.utils import type_check


@pytest.mark.parametrize('batchwise', [True, False])
@pytest.mark.parametrize('use_bias', [True, False])
def test_simplified_dropconnect(batchwise, use_bias):
    rng = numpy.random.RandomState(0)
    x = rng.uniform(-1, 1, (4, 3, 2)).astype(numpy.float32)
    W = rng.uniform(-1, 1, (5, 6)).astype(numpy.float32)
    b = rng.uniform(-1, 1, (5,)).astype(numpy.float32) if use_bias else None
    numpy.random.seed(1)
    y = F.simplified_dropconnect(x, W, b, ratio=0.4, use_batchwise_mask=batchwise)
    numpy.random.seed(1)
    shape = (4, 5, 6) if batchwise else (5, 6)
    mask = numpy.random.rand(*shape) >= 0.4
    Wm = W * numpy.float32(1 / 0.6) * mask
    xm = x.reshape(4, 6)
    ref = numpy.einsum('bjk,bk->bj', Wm, xm) if batchwise else xm.dot(Wm.T)
    if use_bias:
        ref = ref + b
    assert y.shape == (4, 5) and y.dtype == numpy.float32
    numpy.testing.assert_allclose(y.array, ref, rtol=1e-5, atol=1e-6)

    gy = rng.uniform(-1, 1, (4, 5))
    inputs = (x.astype(numpy.float64), W.astype(numpy.float64))
    if use_bias:
        inputs += (b.astype(numpy.float64),)

    def f(*args):
        return F.simplified_dropconnect(args[0], args[1], *args[2:], ratio=0.4, mask=mask,
                                        use_batchwise_mask=batchwise)
    gradient_check.check_backward(f, inputs, gy, atol=1e-6, rtol=1e-6)


def test_simplified_dropconnect_test_mode_keeps_all_weights():
    rng = numpy.random.RandomState(2)
    x = rng.uniform(-1, 1, (2, 3))
    W = rng.uniform(-1, 1, (4, 3))
    y = F.simplified_dropconnect(x, W, train=False)
    numpy.testing.assert_allclose(y.array, x.dot(W.T))


def test_simplified_dropconnect_shape_mismatch():
    with pytest.raises(type_check.InvalidType):
        F.simplified_dropconnect(numpy.zeros((2, 3), 'f'), numpy.zeros((4, 5), 'f'))
