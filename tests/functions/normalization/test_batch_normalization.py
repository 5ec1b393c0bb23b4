import numpy
import pytest

import minichainer
import minichainer.functions as F
from minichainer import gradient_check
from minichainer.utils import type_check


def _ref_bn(x, gamma, beta, eps, axis):
    mean = x.mean(axis=axis, keepdims=True)
    var = x.var(axis=axis, keepdims=True)
    shape = [1 if i in axis else s for i, s in enumerate(x.shape)]
    return (x - mean) / numpy.sqrt(var + eps) * gamma.reshape(shape) + beta.reshape(shape)


def _gc(dtype):
    if dtype == numpy.float16:
        return {'dtype': numpy.float64, 'atol': 1e-2, 'rtol': 1e-1}
    if dtype == numpy.float32:
        return {'atol': 1e-3, 'rtol': 1e-2}
    return {'atol': 1e-6, 'rtol': 1e-5}


@pytest.mark.parametrize('xshape,gshape,axis', [
    ((5, 3), (3,), None),
    ((4, 3, 2, 2), (3,), None),
    ((3, 2, 3, 2), (2, 3), None),
    ((3, 4, 2), (4,), (0, 2)),
    ((4, 3), (4,), 1),
])
@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
def test_batch_normalization(xshape, gshape, axis, dtype):
    rng = numpy.random.RandomState(0)
    x = rng.uniform(-1, 1, xshape).astype(dtype)
    gamma = rng.uniform(0.5, 1.5, gshape).astype(dtype)
    beta = rng.uniform(-1, 1, gshape).astype(dtype)
    eps = 2e-5
    f = (lambda x, g, b: F.batch_normalization(x, g, b, eps=eps, axis=axis))
    y = f(x, gamma, beta)
    ax = (axis,) if isinstance(axis, int) else axis
    if ax is None:
        ax = (0,) + tuple(range(1 + len(gshape), len(xshape)))
    ref = _ref_bn(x.astype('d'), gamma.astype('d'), beta.astype('d'), eps, ax)
    assert y.dtype == dtype
    tol = {'atol': 1e-2, 'rtol': 1e-2} if dtype == numpy.float16 else {'atol': 1e-5,
                                                                       'rtol': 1e-4}
    numpy.testing.assert_allclose(y.array, ref, **tol)
    gy = rng.uniform(-1, 1, xshape).astype(dtype)
    gradient_check.check_backward(f, (x, gamma, beta), gy, **_gc(dtype))
    if dtype == numpy.float64:
        gg = tuple(rng.uniform(-1, 1, a.shape) for a in (x, gamma, beta))
        gradient_check.check_double_backward(f, (x, gamma, beta), gy, gg,
                                             atol=1e-4, rtol=1e-3)


def test_batch_normalization_running_stats_updated_in_place():
    rng = numpy.random.RandomState(1)
    x = rng.randn(6, 3, 2)
    gamma = numpy.ones(3)
    beta = numpy.zeros(3)
    rm = numpy.full(3, 0.5)
    rv = numpy.full(3, 2.0)
    rm_id, rv_id = id(rm), id(rv)
    F.batch_normalization(x, gamma, beta, running_mean=rm, running_var=rv, decay=0.8)
    assert id(rm) == rm_id and id(rv) == rv_id
    m = 12
    numpy.testing.assert_allclose(rm, 0.8 * 0.5 + 0.2 * x.mean(axis=(0, 2)))
    numpy.testing.assert_allclose(rv, 0.8 * 2.0 + 0.2 * x.var(axis=(0, 2)) * m / (m - 1))


def test_batch_normalization_errors_and_warning():
    x = numpy.zeros((2, 3), 'f')
    with pytest.raises(type_check.InvalidType):
        F.batch_normalization(x, numpy.ones(4, 'f'), numpy.zeros(4, 'f'))
    with pytest.raises(ValueError):
        F.batch_normalization(x, numpy.ones(3, 'f'), numpy.zeros(3, 'f'), train=True)
    with pytest.warns(UserWarning):
        F.batch_normalization(numpy.ones((1, 3), 'f'), numpy.ones(3, 'f'),
                              numpy.zeros(3, 'f'))


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
@pytest.mark.parametrize('xshape,axis', [((4, 3, 2), None), ((4, 3), 0)])
def test_fixed_batch_normalization(dtype, xshape, axis):
    rng = numpy.random.RandomState(2)
    x = rng.uniform(-1, 1, xshape).astype(dtype)
    gamma = rng.uniform(0.5, 1.5, 3).astype(dtype)
    beta = rng.uniform(-1, 1, 3).astype(dtype)
    mean = rng.uniform(-1, 1, 3).astype(dtype)
    var = rng.uniform(0.5, 1, 3).astype(dtype)
    f = (lambda *a: F.fixed_batch_normalization(*a, eps=1e-3, axis=axis))
    y = f(x, gamma, beta, mean, var)
    shape = (1, 3) + (1,) * (len(xshape) - 2)
    ref = ((x.astype('d') - mean.reshape(shape)) / numpy.sqrt(var.reshape(shape) + 1e-3)
           * gamma.reshape(shape) + beta.reshape(shape))
    tol = {'atol': 1e-2, 'rtol': 1e-2} if dtype == numpy.float16 else {'rtol': 1e-5}
    assert y.dtype == dtype
    numpy.testing.assert_allclose(y.array, ref, **tol)
    args = (x, gamma, beta, mean, var)
    gy = rng.uniform(-1, 1, xshape).astype(dtype)
    gradient_check.check_backward(f, args, gy, **_gc(dtype))
    if dtype == numpy.float64:
        gg = tuple(rng.uniform(-1, 1, a.shape) for a in args)
        gradient_check.check_double_backward(f, args, gy, gg, **_gc(dtype))


@pytest.mark.parametrize('update', [False, True])
def test_batch_renormalization(update):
    rng = numpy.random.RandomState(3)
    x = rng.randn(6, 3, 2)
    gamma = rng.uniform(0.5, 1.5, 3)
    beta = rng.randn(3)
    rm = rng.randn(3) * 0.1
    rv = rng.uniform(0.5, 1.5, 3)
    rm0, rv0 = rm.copy(), rv.copy()
    eps, rmax, dmax = 2e-5, 1.2, 0.3
    y = F.batch_renormalization(x, gamma, beta, rmax, dmax, eps=eps, running_mean=rm,
                                running_var=rv, decay=0.8, update_statistics=update)
    mean = x.mean(axis=(0, 2))
    std = numpy.sqrt(x.var(axis=(0, 2)) + eps)
    sig = numpy.sqrt(rv0 + eps)
    r = numpy.clip(std / sig, 1 / rmax, rmax)
    d = numpy.clip((mean - rm0) / sig, -dmax, dmax)
    e = (None, slice(None), None)
    ref = gamma[e] * ((x - mean[e]) / std[e] * r[e] + d[e]) + beta[e]
    numpy.testing.assert_allclose(y.array, ref, rtol=1e-10)
    if update:
        numpy.testing.assert_allclose(rm, 0.8 * rm0 + 0.2 * mean)
        numpy.testing.assert_allclose(rv, 0.8 * rv0 + 0.2 * x.var(axis=(0, 2)) * 12 / 11)
    else:
        numpy.testing.assert_array_equal(rm, rm0)
    # with r, d within their clipping range the gradient equals plain BN's
    # (r, d are constants), so compare against batch_normalization with gamma * r
    xv, gv, bv = (minichainer.Variable(a.copy()) for a in (x, gamma, beta))
    y = F.batch_renormalization(xv, gv, bv, 1e9, 1e9, eps=eps, running_mean=rm0.copy(),
                                running_var=rv0.copy())
    gy = rng.randn(*x.shape)
    y.grad = gy
    y.backward()
    r = std / sig
    xv2 = minichainer.Variable(x.copy())
    y2 = F.batch_normalization(xv2, gamma * r, numpy.zeros(3), eps=eps)
    y2.grad = gy
    y2.backward()
    numpy.testing.assert_allclose(xv.grad, xv2.grad, rtol=1e-6, atol=1e-10)
    numpy.testing.assert_allclose(bv.grad, gy.sum(axis=(0, 2)))
    with pytest.raises(TypeError):
        F.batch_renormalization(x, gamma, beta, 1, 0)


def test_batch_normalization_mixed_dtypes():
    # float16 activations with float32 parameters (the mixed16 mode of the link)
    rng = numpy.random.RandomState(4)
    x = rng.uniform(-1, 1, (5, 3)).astype(numpy.float16)
    gamma = rng.uniform(0.5, 1.5, 3).astype(numpy.float32)
    beta = rng.uniform(-1, 1, 3).astype(numpy.float32)
    mean = rng.uniform(-1, 1, 3).astype(numpy.float32)
    var = rng.uniform(0.5, 1, 3).astype(numpy.float32)
    for f, args in ((F.batch_normalization, (x, gamma, beta)),
                    (F.fixed_batch_normalization, (x, gamma, beta, mean, var))):
        vs = [minichainer.Variable(a) for a in args]
        y = f(*vs)
        assert y.dtype == numpy.float16
        y.grad = rng.uniform(-1, 1, x.shape).astype(numpy.float16)
        y.backward()
        assert vs[0].grad.dtype == numpy.float16
        assert vs[1].grad.dtype == numpy.float32 and vs[2].grad.dtype == numpy.float32
    xv, gv = minichainer.Variable(x), minichainer.Variable(gamma)
    y = F.batch_normalization(xv, gv, beta)
    gx, = minichainer.grad([F.sum(y * y * y)], [xv], enable_double_backprop=True)
    F.sum(gx * gx).backward()
    assert xv.grad.dtype == numpy.float16 and gv.grad.dtype == numpy.float32
    assert numpy.all(numpy.isfinite(xv.grad))
