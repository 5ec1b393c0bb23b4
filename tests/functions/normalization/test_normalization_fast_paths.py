"""Normalization: running statistics against Chainer 7.8.1, graph-free backward paths.

The first-order backward of batch/fixed-batch/layer normalization is computed without
a graph (closed form, one buffer); with ``enable_double_backprop`` the differentiable
path is used. Both must give the same gradients.
"""
import numpy
import pytest

import minichainer
import minichainer.functions as F
from minichainer import gradient_check


def _chainer_case():
    x = ((numpy.arange(4 * 3 * 2 * 2) * 37 % 23) / 7.0 - 1.5).astype(numpy.float32)
    x = x.reshape(4, 3, 2, 2)
    gamma = numpy.array([0.5, 1.0, 1.5], numpy.float32)
    beta = numpy.array([0.1, -0.2, 0.3], numpy.float32)
    mean = numpy.array([0.2, -0.1, 0.0], numpy.float32)
    var = numpy.array([1.0, 0.5, 2.0], numpy.float32)
    return x, gamma, beta, mean, var


def test_running_statistics_equal_chainer_7():
    # recorded with chainer==7.8.1 (NumPy 1.26) on the same inputs
    x, gamma, beta, mean, var = _chainer_case()
    y = F.batch_normalization(x, gamma, beta, running_mean=mean, running_var=var,
                              decay=0.7)
    numpy.testing.assert_allclose(
        mean, [0.17750000953674316, -0.03517856076359749, -0.029464291408658028],
        rtol=1e-6)
    numpy.testing.assert_allclose(
        var, [0.993775486946106, 0.642015278339386, 1.6826274394989014], rtol=1e-6)
    numpy.testing.assert_allclose(
        y.array[0, :, 0, 0],
        [-0.7479804754257202, -0.39627671241760254, 2.622863531112671], rtol=1e-6)
    F.batch_renormalization(x, gamma, beta, 2.0, 0.5, running_mean=mean,
                            running_var=var, decay=0.7, update_statistics=True)
    numpy.testing.assert_allclose(
        mean, [0.16175000369548798, 0.010196447372436523, -0.05008929595351219],
        rtol=1e-6)
    numpy.testing.assert_allclose(
        var, [0.9894183278083801, 0.7414259910583496, 1.4604666233062744], rtol=1e-6)


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
def test_running_statistics_follow_x_mean_and_unbiased_x_var(dtype):
    rng = numpy.random.RandomState(0)
    x = (rng.randn(6, 4, 3, 5) * 2 + 7).astype(dtype)
    gamma, beta = numpy.ones(4, dtype), numpy.zeros(4, dtype)
    mean, var = rng.randn(4).astype(dtype), rng.uniform(1, 2, 4).astype(dtype)
    m0, v0 = mean.copy(), var.copy()
    F.batch_normalization(x, gamma, beta, running_mean=mean, running_var=var, decay=0.8)
    axis = (0, 2, 3)
    m = x.size // 4
    expected_mean = m0 * 0.8 + 0.2 * x.mean(axis=axis, dtype=dtype)
    expected_var = v0 * 0.8 + 0.2 * (m / (m - 1.)) * x.var(axis=axis, dtype=dtype)
    rtol = 1e-6 if dtype != numpy.float16 else 1e-3
    assert mean.dtype == dtype and var.dtype == dtype
    numpy.testing.assert_allclose(mean, expected_mean, rtol=rtol)
    numpy.testing.assert_allclose(var, expected_var, rtol=rtol)


def _grads(func, arrays, gy, double):
    vs = [minichainer.Variable(a) for a in arrays]
    y = func(*vs)
    gs = minichainer.grad([y], vs, grad_outputs=[minichainer.Variable(gy)],
                          enable_double_backprop=double)
    return [g.array for g in gs]


def _tol(dtype):
    return {numpy.float16: 5e-3, numpy.float32: 1e-5, numpy.float64: 1e-12}[dtype]


CASES = {
    'batch_normalization': (
        lambda x, g, b: F.batch_normalization(x, g, b), (5, 3, 4, 2), (3,)),
    'batch_normalization_axis': (
        lambda x, g, b: F.batch_normalization(x, g, b, axis=(0, 2)), (5, 3, 4), (3,)),
    'fixed_batch_normalization': (
        lambda x, g, b, m, v: F.fixed_batch_normalization(x, g, b, m, v),
        (4, 3, 2, 2), (3,)),
    'layer_normalization': (
        lambda x, g, b: F.layer_normalization(x, g, b), (4, 7), (7,)),
    'group_normalization': (
        lambda x, g, b: F.group_normalization(x, 2, g, b), (3, 4, 2, 3), (4,)),
}


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
@pytest.mark.parametrize('name', sorted(CASES))
def test_graph_free_backward_equals_differentiable_backward(name, dtype):
    func, xshape, pshape = CASES[name]
    rng = numpy.random.RandomState(1)
    arrays = [rng.randn(*xshape).astype(dtype), rng.uniform(.5, 1.5, pshape).astype(dtype),
              rng.randn(*pshape).astype(dtype)]
    if name.startswith('fixed'):
        arrays += [rng.randn(*pshape).astype(dtype),
                   rng.uniform(.5, 2, pshape).astype(dtype)]
    gy = rng.randn(*xshape).astype(dtype)
    fast = _grads(func, arrays, gy, False)
    graph = _grads(func, arrays, gy, True)
    for a, b in zip(fast, graph):
        assert a.dtype == b.dtype
        numpy.testing.assert_allclose(a.astype('d'), b.astype('d'), rtol=_tol(dtype),
                                      atol=_tol(dtype))


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
def test_batch_normalization_gradients(dtype):
    rng = numpy.random.RandomState(2)
    x = rng.randn(4, 3, 2, 3).astype(dtype)
    gamma = rng.uniform(.5, 1.5, 3).astype(dtype)
    beta = rng.randn(3).astype(dtype)
    gy = rng.randn(*x.shape).astype(dtype)
    tol = ({'dtype': numpy.float64, 'atol': 5e-2, 'rtol': 1e-1}
           if dtype == numpy.float16 else {'atol': 1e-3, 'rtol': 1e-3})
    gradient_check.check_backward(F.batch_normalization, (x, gamma, beta), gy, **tol)
    gradient_check.check_backward(
        lambda x, g, b: F.layer_normalization(x, g, b),
        (x.reshape(4, -1), rng.uniform(.5, 1.5, 18).astype(dtype),
         rng.randn(18).astype(dtype)), gy.reshape(4, -1), **tol)


def test_batch_renormalization_gradients():
    rng = numpy.random.RandomState(3)
    x = rng.randn(5, 3, 2).astype(numpy.float64)
    gamma = rng.uniform(.5, 1.5, 3)
    beta = rng.randn(3)
    mean, var = rng.randn(3) * .1, rng.uniform(.8, 1.2, 3)
    gy = rng.randn(*x.shape)

    def f(g, b):
        # r and d are constants of the backward: compare with fixed statistics
        # (x is a constant here: its gradient is checked against plain BN elsewhere)
        return F.batch_renormalization(x, g, b, 3.0, 2.0, running_mean=mean.copy(),
                                       running_var=var.copy())
    gradient_check.check_backward(f, (gamma, beta), gy, atol=1e-4, rtol=1e-4)


def test_group_normalization_mul_inv_std_helper():
    from minichainer.functions.normalization import group_normalization as gn
    rng = numpy.random.RandomState(5)
    x = rng.uniform(-1, 1, (5, 4))
    y = rng.uniform(-1, 1, (5, 4))
    eps = 1e-1

    def f(x, y):
        xa = x.array
        mean = xa.mean(axis=1)
        inv_std = (xa.var(axis=1) + eps) ** -0.5
        return gn._MulInvStd(eps, mean, inv_std, numpy.ones(5)).apply((x, y))[0]
    z = f(minichainer.Variable(x), minichainer.Variable(y))
    numpy.testing.assert_allclose(z.array, (x.var(axis=1) + eps)[:, None] ** -0.5 * y)
    gz, ggx, ggy = rng.randn(3, 5, 4)
    gradient_check.check_backward(f, (x, y), gz, atol=1e-5, rtol=1e-4)
    gradient_check.check_double_backward(f, (x, y), gz, (ggx, ggy), atol=1e-5, rtol=1e-4)


@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
def test_batch_normalization_feature_map_statistics_match_numpy_var(dtype):
    # feature maps sum their squares by einsum (no squares buffer): the statistics,
    # running statistics and y agree with x.mean / x.var to rounding
    rng = numpy.random.RandomState(7)
    x = (rng.randn(6, 4, 5, 3) * 3 + 2).astype(dtype)
    gamma = rng.uniform(.5, 1.5, 4).astype(dtype)
    beta = rng.randn(4).astype(dtype)
    rm, rv = numpy.zeros(4, dtype), numpy.ones(4, dtype)
    y = F.batch_normalization(x, gamma, beta, running_mean=rm, running_var=rv, decay=0.5)
    mean = x.mean(axis=(0, 2, 3), dtype=numpy.float64)
    var = x.var(axis=(0, 2, 3), dtype=numpy.float64)
    e = (None, slice(None), None, None)
    ref = gamma[e] * (x - mean[e]) / numpy.sqrt(var[e] + 2e-5) + beta[e]
    tol = 1e-5 if dtype == numpy.float32 else 1e-12
    assert y.dtype == dtype
    numpy.testing.assert_allclose(y.array, ref, rtol=tol, atol=tol)
    numpy.testing.assert_allclose(rm, 0.5 * mean, rtol=tol)
    numpy.testing.assert_allclose(rv, 0.5 + 0.5 * var * 90 / 89, rtol=tol)


# Chainer 7.8.1's CPU output bits (float32 little-endian, recorded with chainer==7.8.1 on
# NumPy 1.26.4) for batch_normalization of a (6, 4) input: (batch, units) inputs follow
# Chainer's rounding exactly, forward, backward and running statistics
_CHAINER_BN_2D_BITS = {
    'y': '554cd73ed36f36be508af23c329806bfec53b9be2b509cbfbabceebee77a6cbf5c5b27bf6787bebfe35602bfaebb59bf13dce8be5ce77abf00aacabd0db59cbe0a78703efeab9b3e84a6433f8fa8353f6324b53f504a17401f27054064930c40',
    'gx': '8877293fbe822c3f26d999bedf9233bf852cfdbe4d6a3b3ea648163f0776183ff96433bd98cdabbfea8d39bf02050c3d8a41323f41037f3fa785923d38e904bf2bf956bfab9c83befbd1233ffc98563f8495a13c17ee81beb2e18bbeef4c7dbe',
    'ggamma': '3097753f266585bf4075d1bf1824b5be',
    'gbeta': '0e82fd3e00272bbbf4f3febe461509bf',
    'rm': '5c72c53d3371d63dc272ef3d843b083e',
    'rv': '42e27e3f6418843f23f18a3f5ffb933f',
}


def test_batch_normalization_2d_bit_equal_to_chainer():
    x = minichainer.Variable(
        (numpy.arange(24, dtype=numpy.float32).reshape(6, 4) * 0.37 - 3.1) ** 2 / 7)
    g = minichainer.Variable(numpy.array([0.7, 1.3, 0.9, 1.1], numpy.float32))
    b = minichainer.Variable(numpy.array([0.1, -0.2, 0.3, 0.05], numpy.float32))
    rm, rv = numpy.zeros(4, numpy.float32), numpy.ones(4, numpy.float32)
    y = F.batch_normalization(x, g, b, running_mean=rm, running_var=rv)
    y.grad = numpy.cos(numpy.arange(24, dtype=numpy.float32)).reshape(6, 4)
    y.backward()
    got = {'y': y.array, 'gx': x.grad, 'ggamma': g.grad, 'gbeta': b.grad, 'rm': rm,
           'rv': rv}
    for key, hexbits in _CHAINER_BN_2D_BITS.items():
        want = numpy.frombuffer(bytes.fromhex(hexbits), dtype='<f4')
        numpy.testing.assert_array_equal(got[key].ravel(), want, err_msg=key)
