import importlib

import numpy
import pytest

import minichainer
import minichainer.functions as F
from minichainer import gradient_check
from minichainer.utils import type_check


def _sig(v):
    return 1 / (1 + numpy.exp(-v))


def _reference(cs, x):
    """c = tanh(a) sig(i) + sum_k sig(f_k) c_k, h = sig(o) tanh(c); gates are blocks."""
    n = len(cs)
    u = x.shape[1] // (3 + n)
    block = [x[:, k * u:(k + 1) * u] for k in range(3 + n)]
    c = numpy.tanh(block[0]) * _sig(block[1])
    for k in range(n):
        c = c + _sig(block[3 + k]) * cs[k]
    return c, _sig(block[2]) * numpy.tanh(c)


def _inputs(rng, n, batch=3, units=4, extra=(), dtype=numpy.float64):
    cs = [rng.uniform(-1, 1, (batch, units) + extra).astype(dtype) for _ in range(n)]
    x = rng.uniform(-1, 1, (batch, (3 + n) * units) + extra).astype(dtype)
    return cs, x


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
@pytest.mark.parametrize('n', [1, 2, 3])
@pytest.mark.parametrize('extra', [(), (2,)])
def test_forward_matches_reference(dtype, n, extra):
    rng = numpy.random.RandomState(n)
    cs, x = _inputs(rng, n, extra=extra, dtype=dtype)
    c, h = F.tree_lstm(*cs, x)
    assert c.dtype == dtype and h.dtype == dtype
    assert c.shape == cs[0].shape and h.shape == cs[0].shape
    c_ref, h_ref = _reference([v.astype(numpy.float64) for v in cs],
                              x.astype(numpy.float64))
    tol = 5e-3 if dtype == numpy.float16 else 1e-6
    numpy.testing.assert_allclose(c.array, c_ref, rtol=tol, atol=tol)
    numpy.testing.assert_allclose(h.array, h_ref, rtol=tol, atol=tol)


def test_blocks_are_contiguous_not_interleaved():
    # Only the cell-input block a is large: c = tanh(a) * sigmoid(0) = 0.5 tanh(a).
    x = numpy.zeros((1, 8))
    x[0, :2] = [3.0, -3.0]
    c, h = F.tree_lstm(numpy.zeros((1, 2)), x)
    numpy.testing.assert_allclose(c.array, 0.5 * numpy.tanh([[3.0, -3.0]]))


@pytest.mark.parametrize('shape', [(5, 0, 4), (0, 3, 1)])
def test_empty_arrays(shape):
    batch, units, n = shape
    cs = [numpy.zeros((batch, units), 'f') for _ in range(n)]
    c, h = F.tree_lstm(*cs, numpy.zeros((batch, (3 + n) * units), 'f'))
    assert c.shape == (batch, units) and h.shape == (batch, units)


@pytest.mark.parametrize('n', [1, 3])
@pytest.mark.parametrize('given', ['both', 'gc', 'gh'])
def test_backward(n, given):
    rng = numpy.random.RandomState(10 + n)
    cs, x = _inputs(rng, n, extra=(2,))
    gc = rng.uniform(-1, 1, cs[0].shape) if given in ('both', 'gc') else None
    gh = rng.uniform(-1, 1, cs[0].shape) if given in ('both', 'gh') else None
    gradient_check.check_backward(F.tree_lstm, cs + [x], (gc, gh), atol=1e-6, rtol=1e-5)


@pytest.mark.parametrize('n', [1, 2])
def test_double_backward(n):
    rng = numpy.random.RandomState(20 + n)
    cs, x = _inputs(rng, n, batch=2, units=3)
    gys = tuple(rng.uniform(-1, 1, cs[0].shape) for _ in range(2))
    ggs = tuple(rng.uniform(-1, 1, v.shape) for v in cs + [x])
    gradient_check.check_double_backward(F.tree_lstm, cs + [x], gys, ggs,
                                         atol=1e-5, rtol=1e-4)


def test_fast_and_differentiable_gradients_agree():
    rng = numpy.random.RandomState(5)
    cs, x = _inputs(rng, 2)
    weight = rng.uniform(-1, 1, cs[0].shape)
    grads = []
    for create_graph in (False, True):
        vs = [minichainer.Variable(v) for v in cs + [x]]
        c, h = F.tree_lstm(*vs)
        loss = F.sum(c * weight) + F.sum(h)
        grads.append(minichainer.grad([loss], vs, enable_double_backprop=create_graph))
    for fast, slow in zip(*grads):
        numpy.testing.assert_allclose(fast.array, slow.array, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize('inputs, message', [
    ((numpy.zeros((2, 3), 'f'),), 'in_types.size() >= 2'),
    ((numpy.zeros((2, 3), 'f'), numpy.zeros((2, 11), 'f')), 'x.shape[1] == 4 * c1.shape[1]'),
    ((numpy.zeros((2, 3), 'f'), numpy.zeros((2, 12), 'd')), 'x.dtype == c1.dtype'),
    ((numpy.zeros((2, 3), 'i'), numpy.zeros((2, 12), 'i')), 'c1.dtype.kind == f'),
    ((numpy.zeros((2, 3), 'f'), numpy.zeros((3, 12), 'f')),
     'x.shape[0] == c1.shape[0]'),
    ((numpy.zeros((2, 3), 'f'), numpy.zeros((2, 3), 'f'), numpy.zeros((2, 15), 'f')[:, :14]),
     'x.shape[1] == 5 * c1.shape[1]'),
    ((numpy.zeros((2, 3, 2), 'f'), numpy.zeros((2, 12, 3), 'f')),
     'x.shape[2] == c1.shape[2]'),
])
def test_type_errors(inputs, message):
    with pytest.raises(type_check.InvalidType) as info:
        F.tree_lstm(*inputs)
    assert message in str(info.value)


def test_old_style_call():
    module = importlib.import_module('minichainer.functions.rnn.tree_lstm')
    rng = numpy.random.RandomState(2)
    cs, x = _inputs(rng, 2)
    node = module.TreeLSTM()
    first = node(*cs, x)
    second = node(*cs, x)  # callable again, like Chainer's old-style Function
    c_ref, h_ref = _reference(cs, x)
    for out in (first, second):
        numpy.testing.assert_allclose(out[0].array, c_ref)
        numpy.testing.assert_allclose(out[1].array, h_ref)


def test_module_layout():
    module = importlib.import_module('minichainer.functions.rnn.tree_lstm')
    assert module.tree_lstm is F.tree_lstm
    assert issubclass(module.TreeLSTM, minichainer.FunctionNode)
    for name in ('n_step_rnn', 'n_step_birnn', 'n_step_lstm', 'n_step_bilstm',
                 'n_step_gru', 'n_step_bigru'):
        family = name.replace('bi', '').replace('n_step_', '')
        module = importlib.import_module('minichainer.functions.rnn.n_step_' + family)
        assert getattr(module, name) is getattr(F, name)
    assert callable(importlib.import_module('minichainer.functions.rnn.n_step_rnn')
                    .n_step_rnn_base)
    with pytest.raises(ImportError):
        importlib.import_module('minichainer.functions.connection.n_step_lstm')
