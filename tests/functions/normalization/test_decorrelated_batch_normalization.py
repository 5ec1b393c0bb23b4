import numpy
import pytest

import minichainer
import minichainer.functions as F
from minichainer import gradient_check
from minichainer.utils import type_check

# x, gy and outputs computed once with Chainer 7.8.1 (groups=2, eps=1e-3)
X = [[[-0.85, 0.56, -0.12], [0.45, 0.96, 0.08], [0.0, -0.86, -0.46], [-0.0, 0.36, 0.61]],
     [[-0.24, -0.87, -0.42], [0.82, -0.57, -0.1], [0.86, -0.95, 0.2], [0.9, -0.54, 0.1]],
     [[0.82, -0.73, 0.05], [0.5, 0.34, -0.06], [-0.59, -0.02, -0.26], [-0.05, -0.27, 0.68]],
     [[0.54, -0.37, 0.15], [-0.45, -0.09, -0.29], [0.31, -0.26, -0.08], [0.44, -0.17, 0.81]]]
GY = [[[-0.64, 0.48, -0.16], [-0.15, 0.27, 0.05], [-0.17, -1.0, -0.82], [0.42, 0.05, 0.39]],
      [[0.91, 0.37, -0.89], [-0.38, 0.19, -0.53], [0.93, 0.89, 0.7], [-0.06, 0.68, -0.74]],
      [[-0.38, -0.07, 0.48], [-0.03, -0.73, -0.31], [-0.35, -0.4, -0.67], [-0.17, -0.1, 0.55]],
      [[0.59, 0.04, -0.08], [0.56, 0.77, 0.35], [0.6, 0.88, -0.92], [0.75, -0.45, -0.05]]]
CHAINER_Y0 = [
    [-1.4209019851586968, 1.1141159641103993, 0.016583376075080005],
    [0.8353850754313665, 1.669046910177123, -0.1150975426649372],
    [0.5301352327336163, -1.5984340701732693, -0.8477637644234928],
    [-0.6933334225751846, 0.6916542980527554, 1.0816422756611959]]
CHAINER_GX0 = [
    [-1.1782739288972988, 0.15574060671862777, -0.38673194191070764],
    [0.39711295866595137, 0.897709234346814, 0.09377151741800775],
    [-1.3700148545890884, -0.3006311926581105, -0.5559965992418313],
    [1.527934204532287, -1.0573709521692476, 0.1007351086993792]]
# running statistics after one update with decay=0.8 from zeros / identity
CHAINER_MEAN = [[-0.024666666666666663, 0.026499999999999985],
                [-0.035166666666666666, 0.047833333333333325]]
CHAINER_PROJ = [[[1.2078277426378992, -0.043024101616396596],
                 [-0.043024101616396575, 1.2755957610445856]],
                [[1.2876476895193563, -0.12510585457661966],
                 [-0.12510585457661966, 1.3405225114172306]]]


def _grouped(x, groups):
    perm = (1, 0) + tuple(range(2, x.ndim))
    return x.transpose(perm).reshape(groups, x.shape[1] // groups, -1)


def _ungrouped(a, shape):
    perm = (1, 0) + tuple(range(2, len(shape)))
    return a.reshape((shape[1], shape[0]) + tuple(shape[2:])).transpose(perm)


def _ref_whitening(x, groups, eps):
    """Per group: mean, and cov^(-1/2) (ZCA) of the biased covariance + eps I."""
    xg = _grouped(x.astype(numpy.float64), groups)
    means, projs = [], []
    for a in xg:
        mu = a.mean(axis=1)
        c = a - mu[:, None]
        cov = c.dot(c.T) / c.shape[1] + eps * numpy.eye(len(mu))
        w, v = numpy.linalg.eigh(cov)
        means.append(mu)
        projs.append(v.dot(numpy.diag(w ** -0.5)).dot(v.T))
    return numpy.array(means), numpy.array(projs)


def _ref_apply(x, mean, proj, groups):
    xg = _grouped(x.astype(numpy.float64), groups)
    y = numpy.einsum('gij,gjm->gim', proj, xg - mean[:, :, None])
    return _ungrouped(y, x.shape)


def _sample(shape, dtype, seed):
    return numpy.random.RandomState(seed).uniform(-1, 1, shape).astype(dtype)


@pytest.mark.parametrize('shape,groups', [
    ((6, 4), 1), ((6, 4), 2), ((5, 6, 3), 3), ((3, 4, 2, 2), 2), ((3, 2, 2, 1, 2), 1)])
@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
def test_forward_whitens_each_group(shape, groups, dtype):
    x = _sample(shape, dtype, 0)
    y = F.decorrelated_batch_normalization(x, groups=groups, eps=1e-4)
    assert y.shape == x.shape and y.dtype == dtype
    mean, proj = _ref_whitening(x, groups, 1e-4)
    tol = 1e-4 if dtype == numpy.float32 else 1e-10
    numpy.testing.assert_allclose(y.array, _ref_apply(x, mean, proj, groups),
                                  rtol=tol, atol=tol)
    # each group's output is zero-mean and (up to eps) has identity covariance
    yg = _grouped(y.array.astype(numpy.float64), groups)
    numpy.testing.assert_allclose(yg.mean(axis=2), 0, atol=1e-5)
    cov = numpy.einsum('gim,gjm->gij', yg, yg) / yg.shape[2]
    numpy.testing.assert_allclose(cov, numpy.broadcast_to(numpy.eye(yg.shape[1]), cov.shape),
                                  atol=0.05)


def test_matches_chainer_values_and_running_statistics():
    x = numpy.array(X)
    rm = numpy.zeros((2, 2))
    rp = numpy.broadcast_to(numpy.eye(2), (2, 2, 2)).copy()
    xv = minichainer.Variable(x)
    y = F.decorrelated_batch_normalization(xv, groups=2, eps=1e-3, running_mean=rm,
                                           running_projection=rp, decay=0.8)
    numpy.testing.assert_allclose(y.array[0], CHAINER_Y0, rtol=1e-12, atol=1e-12)
    numpy.testing.assert_allclose(rm, CHAINER_MEAN, rtol=1e-12, atol=1e-14)
    numpy.testing.assert_allclose(rp, CHAINER_PROJ, rtol=1e-12, atol=1e-14)
    # the update rule itself: decay * old + (1 - decay) * batch, the projection
    # scaled by m / (m - 1) (m = 12 samples per channel) as Chainer does
    mean, proj = _ref_whitening(x, 2, 1e-3)
    numpy.testing.assert_allclose(rm, 0.2 * mean, rtol=1e-12)
    numpy.testing.assert_allclose(rp, 0.8 * numpy.eye(2) + 0.2 * 12 / 11 * proj, rtol=1e-12)
    y.grad = numpy.array(GY)
    y.backward()
    numpy.testing.assert_allclose(xv.grad[0], CHAINER_GX0, rtol=1e-10, atol=1e-12)


def test_running_statistics_are_optional_and_independent():
    x = _sample((5, 4, 2), numpy.float64, 1)
    rm = numpy.ones((2, 2))
    F.decorrelated_batch_normalization(x, groups=2, running_mean=rm, decay=0.5)
    mean, _ = _ref_whitening(x, 2, 2e-5)
    numpy.testing.assert_allclose(rm, 0.5 + 0.5 * mean)
    rp = numpy.zeros((1, 4, 4))
    F.decorrelated_batch_normalization(x, groups=1, running_projection=rp, decay=0.)
    _, proj = _ref_whitening(x, 1, 2e-5)
    numpy.testing.assert_allclose(rp, proj * 10 / 9, rtol=1e-10)
    # defaults: groups=16, eps=2e-5
    x16 = _sample((3, 16, 2), numpy.float64, 2)
    mean, proj = _ref_whitening(x16, 16, 2e-5)
    numpy.testing.assert_allclose(F.decorrelated_batch_normalization(x16).array,
                                  _ref_apply(x16, mean, proj, 16), rtol=1e-8, atol=1e-8)


@pytest.mark.parametrize('shape,groups', [((7, 3), 1), ((5, 4, 2), 2), ((3, 4, 2, 2), 2)])
def test_backward(shape, groups):
    x = _sample(shape, numpy.float64, 3)
    gy = _sample(shape, numpy.float64, 4)

    def f(x):
        return F.decorrelated_batch_normalization(x, groups=groups, eps=1e-2)
    gradient_check.check_backward(f, x, gy, eps=1e-4, atol=1e-6, rtol=1e-5)


def test_backward_float32():
    x = _sample((6, 4, 2), numpy.float32, 5)
    gy = _sample(x.shape, numpy.float32, 6)

    def f(x):
        return F.decorrelated_batch_normalization(x, groups=2, eps=1e-2)
    gradient_check.check_backward(f, x, gy, dtype=numpy.float64, atol=1e-3, rtol=1e-3)
    xv = minichainer.Variable(x)
    F.sum(f(xv) * gy).backward()
    assert xv.grad.dtype == numpy.float32


def test_backward_with_repeated_eigenvalues():
    # every group's covariance is a multiple of the identity (all eigenvalues equal):
    # the gradient is still the exact one (no division by eigenvalue gaps)
    x = numpy.array([[1., 1.], [1., -1.], [-1., 1.], [-1., -1.]])
    gy = _sample(x.shape, numpy.float64, 7)

    def f(x):
        return F.decorrelated_batch_normalization(x, groups=1, eps=0.5)
    xv = minichainer.Variable(x)
    y = f(xv)
    y.grad = gy
    y.backward()
    assert numpy.isfinite(xv.grad).all()
    gradient_check.check_backward(f, x, gy, eps=1e-5, atol=1e-6, rtol=1e-5)


def test_double_backward_is_not_supported():
    x = minichainer.Variable(_sample((4, 2), numpy.float64, 8))
    y = F.decorrelated_batch_normalization(x, groups=1)
    gx, = minichainer.grad([F.sum(y * y * y)], [x], enable_double_backprop=True)
    with pytest.raises(NotImplementedError, match='double'):
        F.sum(gx).backward()


def test_float16_input():
    x = _sample((6, 4, 2), numpy.float16, 9)
    y = F.decorrelated_batch_normalization(x, groups=2, eps=1e-2)
    assert y.dtype == numpy.float16
    mean, proj = _ref_whitening(x, 2, 1e-2)
    numpy.testing.assert_allclose(y.array, _ref_apply(x, mean, proj, 2), rtol=1e-2, atol=1e-2)
    xv = minichainer.Variable(x)
    y = F.decorrelated_batch_normalization(xv, groups=2, eps=1e-2)
    y.grad = numpy.ones_like(x)
    y.backward()
    assert xv.grad.dtype == numpy.float16 and numpy.isfinite(xv.grad).all()


def test_errors():
    x = numpy.zeros((4, 6), numpy.float32)
    with pytest.raises(type_check.InvalidType, match='shape'):
        F.decorrelated_batch_normalization(x, groups=4)
    with pytest.raises(type_check.InvalidType):
        F.decorrelated_batch_normalization(numpy.zeros(4, numpy.float32), groups=1)
    with pytest.raises(type_check.InvalidType):
        F.decorrelated_batch_normalization(numpy.zeros((4, 2), numpy.int32), groups=1)
    for bad in (0, -2, 1.5, True):
        with pytest.raises(ValueError, match='groups must be a positive int'):
            F.decorrelated_batch_normalization(x, groups=bad)
    with pytest.raises(ValueError, match=r'running_mean must have shape \(2, 3\)'):
        F.decorrelated_batch_normalization(x, groups=2, running_mean=numpy.zeros(6))
    with pytest.raises(ValueError, match=r'running_projection must have shape \(2, 3, 3\)'):
        F.decorrelated_batch_normalization(x, groups=2,
                                           running_projection=numpy.zeros((6, 6)))
    with pytest.raises(TypeError, match='gamma'):
        F.decorrelated_batch_normalization(x, groups=2, gamma=1)


@pytest.mark.parametrize('shape,groups', [((5, 4), 2), ((3, 6, 2), 3), ((2, 4, 2, 2), 1)])
@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
def test_fixed_forward(shape, groups, dtype):
    rng = numpy.random.RandomState(10)
    C = shape[1] // groups
    x = rng.uniform(-1, 1, shape).astype(dtype)
    mean = rng.uniform(-1, 1, (groups, C)).astype(dtype)
    proj = rng.uniform(0.5, 1, (groups, C, C)).astype(dtype)
    y = F.fixed_decorrelated_batch_normalization(x, mean, proj, groups=groups)
    assert y.dtype == dtype and y.shape == shape
    tol = {numpy.float16: 1e-2, numpy.float32: 1e-5, numpy.float64: 1e-12}[dtype]
    numpy.testing.assert_allclose(y.array, _ref_apply(x, mean.astype(numpy.float64),
                                                      proj.astype(numpy.float64), groups),
                                  rtol=tol, atol=tol)


@pytest.mark.parametrize('shape,groups', [((5, 4), 2), ((3, 6, 2), 3)])
def test_fixed_backward_and_double_backward(shape, groups):
    rng = numpy.random.RandomState(11)
    C = shape[1] // groups
    x = rng.uniform(-1, 1, shape)
    mean = rng.uniform(-1, 1, (groups, C))
    proj = rng.uniform(0.5, 1, (groups, C, C))
    gy = rng.uniform(-1, 1, shape)
    ggs = (rng.uniform(-1, 1, shape), rng.uniform(-1, 1, mean.shape),
           rng.uniform(-1, 1, proj.shape))

    def f(x, mean, proj):
        return F.fixed_decorrelated_batch_normalization(x, mean, proj, groups=groups)
    gradient_check.check_backward(f, (x, mean, proj), gy, atol=1e-7, rtol=1e-6)
    gradient_check.check_double_backward(f, (x, mean, proj), gy, ggs, atol=1e-7, rtol=1e-6)
    # the gradients in closed form
    vs = [minichainer.Variable(a) for a in (x, mean, proj)]
    y = f(*vs)
    y.grad = gy
    y.backward()
    gyg = _grouped(gy, groups)
    gxg = numpy.einsum('gji,gjm->gim', proj, gyg)
    numpy.testing.assert_allclose(vs[0].grad, _ungrouped(gxg, shape), rtol=1e-12)
    numpy.testing.assert_allclose(vs[1].grad, -gxg.sum(axis=2), rtol=1e-12)
    xc = _grouped(x, groups) - mean[:, :, None]
    numpy.testing.assert_allclose(vs[2].grad, numpy.einsum('gim,gjm->gij', gyg, xc),
                                  rtol=1e-12)


def test_fixed_errors():
    x = numpy.zeros((3, 4), numpy.float32)
    mean = numpy.zeros((2, 2), numpy.float32)
    proj = numpy.zeros((2, 2, 2), numpy.float32)
    F.fixed_decorrelated_batch_normalization(x, mean, proj, groups=2)
    with pytest.raises(type_check.InvalidType, match='mean.dtype == x.dtype'):
        F.fixed_decorrelated_batch_normalization(x, mean.astype(numpy.float64), proj, groups=2)
    with pytest.raises(type_check.InvalidType, match='mean.shape'):
        F.fixed_decorrelated_batch_normalization(x, mean, proj, groups=1)
    with pytest.raises(type_check.InvalidType, match='projection.shape'):
        F.fixed_decorrelated_batch_normalization(x, mean, proj[:, :1], groups=2)
    with pytest.raises(ValueError, match='groups'):
        F.fixed_decorrelated_batch_normalization(x, mean, proj, groups=0)
