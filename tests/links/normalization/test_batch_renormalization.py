import numpy as np
import pytest

import minichainer
import minichainer.functions as F
import minichainer.links as L
from minichainer import gradient_check
from minichainer import serializers

from .. import _util

# input, settings and results computed once with Chainer 7.8.1
X = [[[-0.85, 0.56, -0.12], [0.45, 0.96, 0.08], [0.0, -0.86, -0.46], [-0.0, 0.36, 0.61]],
     [[-0.24, -0.87, -0.42], [0.82, -0.57, -0.1], [0.86, -0.95, 0.2], [0.9, -0.54, 0.1]],
     [[0.82, -0.73, 0.05], [0.5, 0.34, -0.06], [-0.59, -0.02, -0.26], [-0.05, -0.27, 0.68]],
     [[0.54, -0.37, 0.15], [-0.45, -0.09, -0.29], [0.31, -0.26, -0.08], [0.44, -0.17, 0.81]]]
GAMMA = [1., 2., 0.5, 1.5]
BETA = [0., 1., -1., 0.5]
AVG_MEAN = [0.3, -0.2, 0.1, 0.0]
AVG_VAR = [0.5, 2.0, 0.1, 1.0]
CHAINER_Y0 = [
    [-1.527641302703919, 0.4663599406160708, -0.49528604907016555],
    [2.381221136447001, 3.844555668150573, 1.3195862801130371],
    [-0.9793379766782017, -2.303144649986713, -1.6874206158897311],
    [0.3175488143171543, 1.1321737705479418, 1.697885545708211]]
CHAINER_MEAN = [0.173, -0.10024999999999998, 0.017249999999999988, 0.07175000000000001]
CHAINER_VAR = [0.44593636363636363, 1.4706643181818182, 0.14768613636363637,
               0.7639079545454546]
# test mode, with the statistics above
CHAINER_YTEST0 = [
    [-1.5318965953521728, 0.5795151343121124, -0.4387543523344933],
    [1.9074659034215329, 2.7485519747436262, 1.29726620461923],
    [-1.022441910944999, -2.141285007333347, -1.6208928694783014],
    [0.3768634551906576, 0.9946914152096576, 1.4237386096672964]]


def _make(**kwargs):
    link = L.BatchRenormalization(4, rmax=1.5, dmax=0.5, decay=0.7, dtype=np.float64,
                                  **kwargs)
    link.gamma.array[...] = GAMMA
    link.beta.array[...] = BETA
    link.avg_mean[...] = AVG_MEAN
    link.avg_var[...] = AVG_VAR
    link.cleargrads()
    return link


def _ref(x, gamma, beta, run_mean, run_var, rmax, dmax, eps):
    e = (None, slice(None), None)
    mean = x.mean(axis=(0, 2))
    std = np.sqrt(x.var(axis=(0, 2)) + eps)
    sigma = np.sqrt(run_var + eps)
    r = np.clip(std / sigma, 1 / rmax, rmax)
    d = np.clip((mean - run_mean) / sigma, -dmax, dmax)
    return gamma[e] * ((x - mean[e]) / std[e] * r[e] + d[e]) + beta[e]


def test_is_a_batch_normalization_with_chainer_attributes():
    link = L.BatchRenormalization(3)
    assert isinstance(link, L.BatchNormalization)
    assert (link.rmax, link.dmax, link.decay, link.eps) == (1, 0, 0.9, 2e-5)
    assert link.r is None and link.d is None and link.N == 0
    assert link.avg_mean.shape == (3,) and link.avg_mean.dtype == np.float32
    assert (link.avg_var == 1).all() and (link.gamma.array == 1).all()
    assert [n for n, _ in link.namedparams()] == ['/beta', '/gamma']
    # positional order as in Chainer: size, rmax, dmax, decay, eps, dtype, ...
    link = L.BatchRenormalization(2, 2., 0.5, 0.8, 1e-3, np.float64, False)
    assert (link.rmax, link.dmax, link.decay, link.eps) == (2., 0.5, 0.8, 1e-3)
    assert link.gamma is None and link.beta.dtype == np.float64
    with pytest.raises(TypeError):
        L.BatchRenormalization()


def test_training_matches_chainer_and_updates_statistics():
    link = _make()
    x = np.array(X)
    y = link(x)
    np.testing.assert_allclose(y.array[0], CHAINER_Y0, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(
        y.array, _ref(x, np.array(GAMMA), np.array(BETA), np.array(AVG_MEAN),
                      np.array(AVG_VAR), 1.5, 0.5, 2e-5), rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(link.avg_mean, CHAINER_MEAN, rtol=1e-12)
    np.testing.assert_allclose(link.avg_var, CHAINER_VAR, rtol=1e-12)
    m = 12
    np.testing.assert_allclose(
        link.avg_var, 0.7 * np.array(AVG_VAR) + 0.3 * x.var(axis=(0, 2)) * m / (m - 1))
    assert link.N == 0 and link.r is None
    with minichainer.using_config('train', False):
        y = link(x)
    np.testing.assert_allclose(y.array[0], CHAINER_YTEST0, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(link.avg_mean, CHAINER_MEAN, rtol=1e-12)  # unchanged


def test_defaults_reduce_to_batch_normalization():
    np.random.seed(0)
    x = np.random.randn(5, 3, 2).astype(np.float32)
    renorm = L.BatchRenormalization(3)
    bn = L.BatchNormalization(3)
    np.testing.assert_allclose(renorm(x).array, bn(x).array, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(renorm.avg_mean, bn.avg_mean, rtol=1e-6)
    np.testing.assert_allclose(renorm.avg_var, bn.avg_var, rtol=1e-6)
    assert renorm(x).dtype == np.float32


def test_test_mode_is_fixed_batch_normalization():
    link = L.BatchRenormalization(2, rmax=3, dmax=5)
    link.avg_mean[...] = [1, -1]
    link.avg_var[...] = [4, 9]
    x = np.random.randn(3, 2).astype(np.float32)
    with minichainer.using_config('train', False):
        y = link(x, finetune=True)
    np.testing.assert_allclose(y.array, (x - [1, -1]) / np.sqrt(np.array([4, 9]) + 2e-5),
                               rtol=1e-5, atol=1e-6)
    assert link.N == 0 and (link.avg_mean == [1, -1]).all()


def test_finetune_and_start_finetuning():
    link = L.BatchRenormalization(3, 0.9)  # second positional argument is rmax
    assert link.rmax == 0.9 and link.decay == 0.9
    x = np.random.uniform(-1, 1, (10, 3)).astype(np.float32)
    z = np.random.uniform(-1, 1, (10, 3)).astype(np.float32)
    link(x, finetune=True)
    assert link.N == 1
    np.testing.assert_allclose(link.avg_mean, x.mean(0), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(link.avg_var, x.var(0) * 10 / 9, rtol=1e-5)
    link(z, finetune=True)
    assert link.N == 2
    np.testing.assert_allclose(link.avg_mean, (x.mean(0) + z.mean(0)) / 2, rtol=1e-5,
                               atol=1e-6)
    link.start_finetuning()
    assert link.N == 0


def test_without_gamma_beta_and_initial_statistics():
    link = L.BatchRenormalization(4, rmax=1.5, dmax=0.5, use_gamma=False, use_beta=False,
                                  dtype=np.float64, initial_avg_mean=np.array(AVG_MEAN),
                                  initial_avg_var=np.array(AVG_VAR))
    # (Chainer 7.8.1 passes these two into the wrong BatchNormalization arguments)
    np.testing.assert_array_equal(link.avg_mean, AVG_MEAN)
    np.testing.assert_array_equal(link.avg_var, AVG_VAR)
    assert link.axis is None and list(link.params()) == []
    x = np.array(X)
    y = link(x)
    np.testing.assert_allclose(
        y.array, _ref(x, np.ones(4), np.zeros(4), np.array(AVG_MEAN), np.array(AVG_VAR),
                      1.5, 0.5, 2e-5), rtol=1e-12, atol=1e-14)
    link = L.BatchRenormalization(2, initial_gamma=2, initial_beta=-1)
    assert (link.gamma.array == 2).all() and (link.beta.array == -1).all()


def test_backward():
    # with rmax=1, dmax=0 r and d are clipped to constants, so the numerical gradient
    # equals the analytic one (which treats r and d as constants, as the paper does)
    link = L.BatchRenormalization(3, dtype=np.float64)
    rng = np.random.RandomState(1)
    link.gamma.array[...] = rng.uniform(0.5, 1.5, 3)
    x = rng.uniform(-1, 1, (4, 3, 2))
    gy = rng.uniform(-1, 1, x.shape)
    gradient_check.check_backward(link, x, gy, (link.gamma, link.beta), atol=1e-6,
                                  rtol=1e-5)
    # r, d inside their ranges: same gradients as batch normalization with gamma * r
    link = _make()
    xv = minichainer.Variable(np.array(X))
    y = link(xv)
    y.grad = gy_full = rng.uniform(-1, 1, xv.shape)
    y.backward()
    sigma = np.sqrt(np.array(AVG_VAR) + 2e-5)
    r = np.clip(np.sqrt(np.array(X).var(axis=(0, 2)) + 2e-5) / sigma, 1 / 1.5, 1.5)
    xv2 = minichainer.Variable(np.array(X))
    y2 = F.batch_normalization(xv2, np.array(GAMMA) * r, np.zeros(4))
    y2.grad = gy_full
    y2.backward()
    np.testing.assert_allclose(xv.grad, xv2.grad, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(link.beta.grad, gy_full.sum(axis=(0, 2)))


def test_forget_recomputation_updates_statistics_once():
    x = np.array(X)
    link = _make()
    xv = minichainer.Variable(x)
    y = F.forget(link, xv)
    y.grad = np.ones_like(x)
    y.backward()
    np.testing.assert_allclose(link.avg_mean, CHAINER_MEAN, rtol=1e-12)
    np.testing.assert_allclose(link.avg_var, CHAINER_VAR, rtol=1e-12)
    ref = _make()
    xr = minichainer.Variable(x)
    yr = ref(xr)
    yr.grad = np.ones_like(x)
    yr.backward()
    np.testing.assert_allclose(xv.grad, xr.grad, rtol=1e-10, atol=1e-12)
    assert np.isfinite(link.gamma.grad).all()
    np.testing.assert_allclose(link.gamma.grad, ref.gamma.grad, rtol=1e-10)


def test_serialization(tmp_path):
    def prepare(link):
        link.gamma.array[...] = np.random.randn(3)
        link(np.random.randn(5, 3).astype(np.float32), finetune=True)

    src, dst = _util.check_npz_round_trip(
        lambda: L.BatchRenormalization(3, rmax=2, dmax=1), tmp_path, prepare)
    np.testing.assert_array_equal(dst.avg_mean, src.avg_mean)
    np.testing.assert_array_equal(dst.avg_var, src.avg_var)
    assert dst.N == 1
    path = str(tmp_path / 'brn.npz')
    serializers.save_npz(path, src)
    with np.load(path) as f:
        assert sorted(f.files) == ['N', 'avg_mean', 'avg_var', 'beta', 'gamma']
    _util.check_copy_modes(src)
