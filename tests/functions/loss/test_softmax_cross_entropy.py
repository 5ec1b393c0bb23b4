import numpy
import pytest

import minichainer
import minichainer.functions as F
from minichainer import gradient_check
from minichainer.utils import type_check


def _ref(x, t, ignore_label=-1, class_weight=None, normalize=True, reduce='mean'):
    x = x.astype(numpy.float64)
    xm = numpy.moveaxis(x, 1, -1).reshape(-1, x.shape[1])
    tf = t.ravel()
    logz = numpy.log(numpy.exp(xm - xm.max(1, keepdims=True)).sum(1)) + xm.max(1)
    losses = numpy.zeros(len(tf))
    for i, ti in enumerate(tf):
        if ti == ignore_label:
            continue
        w = 1.0 if class_weight is None else class_weight[ti]
        losses[i] = -(xm[i, ti] - logz[i]) * w
    if reduce == 'no':
        return losses.reshape(t.shape)
    count = (tf != ignore_label).sum() if normalize else len(x)
    return losses.sum() / max(count, 1)


@pytest.mark.parametrize('shape', [(4, 3), (2, 3, 2, 2)])
@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
@pytest.mark.parametrize('reduce', ['mean', 'no'])
@pytest.mark.parametrize('weighted', [False, True])
def test_softmax_cross_entropy(shape, dtype, reduce, weighted):
    rng = numpy.random.RandomState(0)
    x = rng.uniform(-2, 2, shape).astype(dtype)
    tshape = (shape[0],) + shape[2:]
    t = rng.randint(0, 3, tshape).astype(numpy.int32)
    t.ravel()[0] = -1
    cw = rng.uniform(0.5, 2, 3).astype(dtype) if weighted else None
    y = F.softmax_cross_entropy(x, t, class_weight=cw, reduce=reduce)
    assert y.dtype == dtype
    tol = {'atol': 5e-3, 'rtol': 5e-2} if dtype == numpy.float16 else {'rtol': 1e-5}
    numpy.testing.assert_allclose(y.array, _ref(x, t, class_weight=cw, reduce=reduce),
                                  **tol)
    gy = None if reduce == 'mean' else rng.uniform(-1, 1, tshape).astype(dtype)
    opt = ({'dtype': numpy.float64, 'atol': 5e-3, 'rtol': 5e-2}
           if dtype == numpy.float16 else {'atol': 1e-3, 'rtol': 1e-2})

    def f(x, t):
        return F.softmax_cross_entropy(x, t, class_weight=cw, reduce=reduce)

    gradient_check.check_backward(f, (x, t), gy, **opt)

    def g(x, t):
        return F.softmax_cross_entropy(x, t, class_weight=cw, reduce=reduce,
                                       enable_double_backprop=True)

    y2 = g(x, t)
    numpy.testing.assert_allclose(y2.array, y.array, **tol)
    if dtype == numpy.float64:
        ggx = rng.uniform(-1, 1, shape)
        gradient_check.check_double_backward(g, (x, t), gy, (ggx,), atol=1e-6, rtol=1e-5)


@pytest.mark.parametrize('normalize', [True, False])
@pytest.mark.parametrize('cache_score', [True, False])
def test_normalize_and_cache_score(normalize, cache_score):
    rng = numpy.random.RandomState(1)
    x = rng.randn(5, 4)
    t = numpy.array([0, -1, 3, -1, 2], numpy.int32)
    f = (lambda x, t: F.softmax_cross_entropy(x, t, normalize=normalize,
                                              cache_score=cache_score))
    numpy.testing.assert_allclose(f(x, t).array, _ref(x, t, normalize=normalize))
    gradient_check.check_backward(f, (x, t), None, atol=1e-7, rtol=1e-6)


def test_all_ignored_gives_zero_loss_and_grad():
    x = minichainer.Variable(numpy.random.randn(3, 2))
    y = F.softmax_cross_entropy(x, numpy.full(3, -1, numpy.int32))
    assert y.array == 0
    y.backward()
    numpy.testing.assert_array_equal(x.grad, numpy.zeros((3, 2)))


def test_stable_at_large_logits():
    x = minichainer.Variable(numpy.array([[1e4, -1e4, 0], [-1e4, 1e4, 1e4]], numpy.float32))
    t = numpy.array([1, 2], numpy.int32)
    y = F.softmax_cross_entropy(x, t)
    assert numpy.isfinite(y.array)
    numpy.testing.assert_allclose(y.array, (2e4 + numpy.log(2)) / 2, rtol=1e-6)
    y.backward()
    assert numpy.all(numpy.isfinite(x.grad))
    numpy.testing.assert_allclose(x.grad, [[0.5, -0.5, 0], [0, 0.25, -0.25]], atol=1e-3)


def test_soft_target():
    rng = numpy.random.RandomState(2)
    x = rng.randn(3, 4)
    t = rng.dirichlet(numpy.ones(4), 3)
    logp = x - numpy.log(numpy.exp(x).sum(1, keepdims=True))
    y = F.softmax_cross_entropy(x, t)
    numpy.testing.assert_allclose(y.array, -(t * logp).sum() / 3)
    y = F.softmax_cross_entropy(x, t, soft_target_loss='kl-divergence', reduce='no')
    numpy.testing.assert_allclose(y.array, (t * (numpy.log(t + 1e-7) - logp)).sum(1))
    gradient_check.check_backward(lambda x: F.softmax_cross_entropy(x, t), (x,), None,
                                  atol=1e-7, rtol=1e-6)


def test_bad_input():
    x = numpy.zeros((2, 3), 'f')
    with pytest.raises(ValueError, match='3'):
        F.softmax_cross_entropy(x, numpy.array([0, 3], numpy.int32))
    with pytest.raises(ValueError):
        F.softmax_cross_entropy(x, numpy.array([0, -2], numpy.int32))
    with pytest.raises(ValueError):
        F.softmax_cross_entropy(x, numpy.array([0, 1], numpy.int32), reduce='sum')
    with pytest.raises(ValueError):
        F.softmax_cross_entropy(x, numpy.array([0, 1], numpy.int32),
                                class_weight=numpy.ones((3, 1), 'f'))
    with pytest.raises(type_check.InvalidType):
        F.softmax_cross_entropy(x, numpy.array([0, 1, 1], numpy.int32))
    with pytest.raises(type_check.InvalidType):
        F.softmax_cross_entropy(x, numpy.array([[0, 1]], numpy.int32))
    # ignore_label may be anything
    y = F.softmax_cross_entropy(x, numpy.array([0, 7], numpy.int32), ignore_label=7)
    numpy.testing.assert_allclose(y.array, numpy.log(3), rtol=1e-6)


def test_double_backprop_disabled_raises():
    x = minichainer.Variable(numpy.random.randn(2, 3))
    y = F.softmax_cross_entropy(x, numpy.array([0, 1], numpy.int32))
    gx, = minichainer.grad([y], [x], enable_double_backprop=True)
    with pytest.raises(RuntimeError):
        F.sum(gx * gx).backward()
