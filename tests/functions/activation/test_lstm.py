import numpy
import pytest

import minichainer
import minichainer.functions as F
from minichainer import gradient_check
from minichainer.utils import type_check

from ._helpers import FLOAT_DTYPES, bwd_opts, fwd_tol


def _sigmoid(x):
    return 1 / (1 + numpy.exp(-x))


def _lstm_ref(c_prev, x):
    batch = len(x)
    r = x.reshape((batch, x.shape[1] // 4, 4) + x.shape[2:])
    a, i, f, o = (r[:, :, k] for k in range(4))
    c = numpy.tanh(a) * _sigmoid(i) + _sigmoid(f) * c_prev[:batch]
    h = _sigmoid(o) * numpy.tanh(c)
    return numpy.concatenate([c, c_prev[batch:]], axis=0), h


@pytest.mark.parametrize('dtype', FLOAT_DTYPES)
@pytest.mark.parametrize('shapes', [((3, 2), (3, 8)), ((3, 2, 2), (2, 8, 2))])
def test_lstm(dtype, shapes):
    c_shape, x_shape = shapes
    rng = numpy.random.RandomState(0)
    c_prev = rng.uniform(-1, 1, c_shape).astype(dtype)
    x = rng.uniform(-1, 1, x_shape).astype(dtype)
    c, h = F.lstm(c_prev, x)
    c_ref, h_ref = _lstm_ref(c_prev.astype(numpy.float64), x.astype(numpy.float64))
    assert c.dtype == dtype and h.dtype == dtype
    numpy.testing.assert_allclose(c.array, c_ref, **fwd_tol(dtype))
    numpy.testing.assert_allclose(h.array, h_ref, **fwd_tol(dtype))

    gc = rng.uniform(-1, 1, c.shape).astype(dtype)
    gh = rng.uniform(-1, 1, h.shape).astype(dtype)
    gradient_check.check_backward(F.lstm, (c_prev, x), (gc, gh), **bwd_opts(dtype))
    ggc = rng.uniform(-1, 1, c_shape).astype(dtype)
    ggx = rng.uniform(-1, 1, x_shape).astype(dtype)
    gradient_check.check_double_backward(F.lstm, (c_prev, x), (gc, gh), (ggc, ggx),
                                         **bwd_opts(dtype))


def test_lstm_only_h_used():
    rng = numpy.random.RandomState(1)
    c_prev = minichainer.Variable(rng.uniform(-1, 1, (2, 3)))
    x = minichainer.Variable(rng.uniform(-1, 1, (2, 12)))
    c, h = F.lstm(c_prev, x)
    F.sum(h).backward()
    assert x.grad.shape == (2, 12) and c_prev.grad.shape == (2, 3)
    # gradient w.r.t. c_prev through h only: the numerical check uses the sum of h
    gradient_check.check_backward(lambda c, x: F.lstm(c, x)[1], (c_prev.array, x.array),
                                  numpy.ones((2, 3)), atol=1e-7, rtol=1e-7)


def test_lstm_shape_mismatch():
    with pytest.raises(type_check.InvalidType):
        F.lstm(numpy.zeros((2, 3), numpy.float32), numpy.zeros((2, 8), numpy.float32))


@pytest.mark.parametrize('batch', [3, 2, 0])
def test_lstm_grad_node_is_callable_and_differentiable(batch):
    from minichainer.functions.activation.lstm import LSTMGrad
    rng = numpy.random.RandomState(batch)
    hidden = (3, 2, 4)
    c_prev, c_next, gc = (rng.uniform(-1, 1, hidden) for _ in range(3))
    x = rng.uniform(-1, 1, (batch, 8, 4))
    gh = rng.uniform(-1, 1, (batch, 2, 4))
    ggc_prev = rng.uniform(-1, 1, hidden)
    ggx = rng.uniform(-1, 1, x.shape)
    gradient_check.check_backward(LSTMGrad(), (c_prev, x, c_next, gc, gh), (ggc_prev, ggx),
                                  atol=1e-7, rtol=1e-7)


@pytest.mark.parametrize('output_index', [0, 1])
def test_lstm_one_output_used(output_index):
    # only c (or only h) reaches the loss, so backward gets None for the other output
    rng = numpy.random.RandomState(5)
    c_prev = rng.uniform(-1, 1, (4, 3))
    x = rng.uniform(-1, 1, (3, 12))
    gy = rng.uniform(-1, 1, ((4, 3), (3, 3))[output_index])
    ggc, ggx = rng.uniform(-1, 1, (4, 3)), rng.uniform(-1, 1, (3, 12))

    def f(c, x):
        return F.lstm(c, x)[output_index]
    gradient_check.check_backward(f, (c_prev, x), gy, atol=1e-7, rtol=1e-7)
    gradient_check.check_double_backward(f, (c_prev, x), gy, (ggc, ggx), atol=1e-7, rtol=1e-7)


@pytest.mark.parametrize('shapes', [((4, 5), (0, 20)), ((0, 0), (0, 0)), ((8, 0), (2, 0))])
def test_lstm_empty(shapes):
    c_prev = numpy.ones(shapes[0], numpy.float32)
    x = numpy.ones(shapes[1], numpy.float32)
    c, h = F.lstm(c_prev, x)
    assert c.shape == shapes[0] and h.shape == (shapes[1][0], shapes[0][1])
    numpy.testing.assert_array_equal(c.array[shapes[1][0]:], c_prev[shapes[1][0]:])
