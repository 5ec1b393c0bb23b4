"""Feature-map activations: the graph-free first-order backward equals the
differentiable one, equals Chainer's formulas exactly, and double backprop works."""
import numpy
import pytest

import minichainer
import minichainer.functions as F
from minichainer import gradient_check


def _formula(name, x, gy):
    """Chainer 7's gradient expressions, written out."""
    dt = x.dtype.type
    if name == 'relu':
        return gy * (numpy.maximum(x, 0) > 0)
    if name == 'leaky_relu':
        gx = gy.copy()
        gx[x <= 0] *= dt(0.2)
        return gx
    if name == 'leaky_relu_steep':
        gx = gy.copy()
        gx[x <= 0] *= dt(1.5)
        return gx
    if name == 'clipped_relu':
        return gy * ((0 < x) & (x < dt(1.0)))
    if name == 'elu':
        y = x.copy()
        y[x <= 0] = numpy.expm1(x[x <= 0])
        d = y + dt(1.0)
        d[x > 0] = 1
        return d * gy
    if name == 'tanh':
        y = numpy.tanh(x)
        return gy * (dt(1) - y * y)
    raise KeyError(name)


FUNCS = {
    'relu': F.relu,
    'leaky_relu': F.leaky_relu,
    'leaky_relu_steep': lambda x: F.leaky_relu(x, 1.5),
    'clipped_relu': lambda x: F.clipped_relu(x, 1.0),
    'elu': F.elu,
    'sigmoid': F.sigmoid,
    'tanh': F.tanh,
}


def _data(dtype, seed=0):
    rng = numpy.random.RandomState(seed)
    x = rng.uniform(-2, 2, (3, 4, 5, 2)).astype(dtype)
    x[0, 0, 0] = 0           # exact zeros and the clipping value
    x[0, 0, 1] = 1
    return x, rng.randn(*x.shape).astype(dtype)


def _grad(func, x, gy, double):
    xv = minichainer.Variable(x)
    gx, = minichainer.grad([func(xv)], [xv], grad_outputs=[minichainer.Variable(gy)],
                           enable_double_backprop=double)
    return gx


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
@pytest.mark.parametrize('name', sorted(FUNCS))
def test_fast_backward_equals_graph_backward(name, dtype):
    x, gy = _data(dtype)
    fast = _grad(FUNCS[name], x, gy, False)
    graph = _grad(FUNCS[name], x, gy, True)
    assert fast.dtype == dtype and fast.shape == x.shape
    assert fast.creator is None
    numpy.testing.assert_array_equal(fast.array, graph.array)
    if name != 'sigmoid':  # sigmoid multiplies in another order (1 ulp)
        numpy.testing.assert_array_equal(fast.array, _formula(name, x, gy))
    else:
        y = F.sigmoid(x).array
        numpy.testing.assert_allclose(fast.array, gy * y * (1 - y),
                                      rtol={numpy.float16: 2e-3}.get(dtype, 1e-6))


@pytest.mark.parametrize('name', sorted(FUNCS))
def test_double_backward(name):
    rng = numpy.random.RandomState(4)
    x = rng.uniform(-2, 2, (3, 4)).astype(numpy.float64)
    x[numpy.abs(x) < 0.1] = 0.5           # keep away from the kinks
    x[numpy.abs(x - 1) < 0.1] = 0.5
    gy = rng.randn(*x.shape)
    ggx = rng.randn(*x.shape)
    gradient_check.check_double_backward(FUNCS[name], x, gy, ggx, atol=1e-5, rtol=1e-4)


def test_leaky_relu_forward_matches_chainer_masking():
    x, _ = _data(numpy.float32)
    for slope in (0.2, 0.0, 1.0, 1.5, -0.3):
        expected = x.copy()
        expected[x <= 0] *= numpy.float32(slope)
        numpy.testing.assert_array_equal(F.leaky_relu(x, slope).array, expected)


@pytest.mark.parametrize('name', sorted(FUNCS))
def test_zero_dimensional_input(name):
    for x in (numpy.float32(-0.5), numpy.float32(0.7)):
        x = numpy.asarray(x)
        gx = _grad(FUNCS[name], x, numpy.asarray(numpy.float32(2)), False)
        gx2 = _grad(FUNCS[name], x, numpy.asarray(numpy.float32(2)), True)
        assert type(gx.array) is numpy.ndarray and gx.shape == ()
        numpy.testing.assert_array_equal(gx.array, gx2.array)
