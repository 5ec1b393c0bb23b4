import numpy
import pytest

import minichainer
import minichainer.functions as F
from minichainer import gradient_check
from minichainer.utils import type_check


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
@pytest.mark.parametrize('ignore_label', [None, 1, -1])
def test_embed_id(dtype, ignore_label):
    rng = numpy.random.RandomState(0)
    x = numpy.array([[0, 1], [2, 0], [1, 2]], dtype=numpy.int32)
    if ignore_label == -1:
        x[1, 1] = -1
    W = rng.uniform(-1, 1, (3, 4)).astype(dtype)
    y = F.embed_id(x, W, ignore_label=ignore_label)
    assert y.shape == (3, 2, 4) and y.dtype == dtype
    expect = numpy.stack([[W[i] if i != ignore_label else numpy.zeros(4, dtype)
                           for i in row] for row in x])
    numpy.testing.assert_array_equal(y.array, expect)
    gy = rng.uniform(-1, 1, y.shape).astype(dtype)
    ggW = rng.uniform(-1, 1, W.shape).astype(dtype)
    tol = ({'atol': 5e-3, 'rtol': 5e-2, 'dtype': numpy.float64}
           if dtype == numpy.float16 else {})

    def f(x, W):
        return F.embed_id(x, W, ignore_label=ignore_label)

    gradient_check.check_backward(f, (x, W), gy, **tol)
    gradient_check.check_double_backward(f, (x, W), gy, ggW, **tol)


def test_embed_id_grad_accumulates_repeated_ids():
    W = minichainer.Variable(numpy.zeros((3, 2)))
    y = F.embed_id(numpy.array([0, 0, 2], numpy.int32), W)
    y.grad = numpy.ones((3, 2))
    y.backward()
    numpy.testing.assert_array_equal(W.grad, [[2, 2], [0, 0], [1, 1]])


def test_embed_id_out_of_range():
    W = numpy.zeros((3, 2), 'f')
    with pytest.raises(ValueError, match='3'):
        F.embed_id(numpy.array([0, 3], numpy.int32), W)
    with pytest.raises(ValueError):
        F.embed_id(numpy.array([-1, 0], numpy.int32), W)
    with pytest.raises(ValueError):
        F.embed_id(numpy.array([-2, 0], numpy.int32), W, ignore_label=-1)
    with pytest.raises(type_check.InvalidType):
        F.embed_id(numpy.array([0.0, 1.0], 'f'), W)


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
@pytest.mark.parametrize('chunk', [None, 7])
def test_embed_id_gradient_is_chainers_sequential_sum(dtype, chunk, monkeypatch):
    # gW[x[i]] += gy[i] in order, as Chainer's CPU loop: repeated ids sum in that order,
    # bit for bit (also across the chunks the flat scatter works in)
    from minichainer.utils import scatter
    if chunk is not None:
        monkeypatch.setattr(scatter, 'SCATTER_ELEMENTS', chunk)
    rng = numpy.random.RandomState(4)
    x = numpy.minimum(rng.zipf(1.3, (6, 9)), 12).astype(numpy.int32) - 1
    x[0, :3] = -1
    W = rng.randn(12, 5).astype(dtype)
    gy = (rng.randn(6, 9, 5) * 100).astype(dtype)
    gy[1, ::2] = -0.0
    xv = x.copy()
    Wv = minichainer.Variable(W)
    y = F.embed_id(xv, Wv, ignore_label=-1)
    y.grad = gy
    y.backward()
    expect = numpy.zeros_like(W)
    for i, row in zip(x.ravel(), gy.reshape(-1, 5)):
        if i != -1:
            expect[i] += row
    numpy.testing.assert_array_equal(Wv.grad, expect)
    assert (numpy.signbit(Wv.grad) == numpy.signbit(expect)).all()
