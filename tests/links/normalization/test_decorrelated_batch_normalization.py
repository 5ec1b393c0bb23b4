import warnings

import numpy as np
import pytest

import minichainer
import minichainer.functions as F
import minichainer.links as L
from minichainer import gradient_check
from minichainer import serializers

# input and results computed once with Chainer 7.8.1
X = [[[-0.85, 0.56, -0.12], [0.45, 0.96, 0.08], [0.0, -0.86, -0.46], [-0.0, 0.36, 0.61]],
     [[-0.24, -0.87, -0.42], [0.82, -0.57, -0.1], [0.86, -0.95, 0.2], [0.9, -0.54, 0.1]],
     [[0.82, -0.73, 0.05], [0.5, 0.34, -0.06], [-0.59, -0.02, -0.26], [-0.05, -0.27, 0.68]],
     [[0.54, -0.37, 0.15], [-0.45, -0.09, -0.29], [0.31, -0.26, -0.08], [0.44, -0.17, 0.81]]]
# DecorrelatedBatchNormalization(4, groups=2, decay=0.8, eps=1e-3, dtype=float64):
# output on X in training mode, the statistics after it, then the test-mode output
TRAIN_Y0 = [
    [-1.4209019851586968, 1.1141159641103993, 0.016583376075080005],
    [0.8353850754313665, 1.669046910177123, -0.1150975426649372],
    [0.5301352327336163, -1.5984340701732693, -0.8477637644234928],
    [-0.6933334225751846, 0.6916542980527554, 1.0816422756611959]]
TRAIN_MEAN = [[-0.024666666666666663, 0.026499999999999985],
              [-0.035166666666666666, 0.047833333333333325]]
TRAIN_PROJ = [[[1.2078277426378992, -0.043024101616396596],
               [-0.043024101616396575, 1.2755957610445856]],
              [[1.2876476895193563, -0.12510585457661966],
               [-0.12510585457661966, 1.3405225114172306]]]
TEST_Y0 = [
    [-1.0150812039583568, 0.6660136213367188, -0.11744803423462359],
    [0.5757240300031147, 1.1656138848567341, 0.0723460042366485],
    [0.05126650712534567, -1.101148613508884, -0.6173660013452962],
    [-0.06852121601540198, 0.5216579230306939, 0.8067462090543538]]
# DecorrelatedBatchNormalization(4, groups=1, dtype=float64) fine-tuned on X, then
# on X[:2] * 2
FT_MEAN = [[-0.38499999999999995, 0.33958333333333335, -0.28958333333333336,
            0.3579166666666667]]
FT_PROJ = [[[2.3253845013859493, -0.4353703587056191, 0.6219697016086985,
             -0.9512029063047913],
            [-0.435370358705619, 2.0520848859410643, -0.20175428733887477,
             -0.20496527229997247],
            [0.6219697016086984, -0.2017542873388748, 2.0276912302989896,
             -0.8983878211061092],
            [-0.9512029063047915, -0.2049652722999725, -0.8983878211061092,
             2.9336629795655593]]]


def _make():
    return L.DecorrelatedBatchNormalization(4, groups=2, decay=0.8, eps=1e-3,
                                            dtype=np.float64)


def test_construction():
    link = L.DecorrelatedBatchNormalization(32)
    assert (link.groups, link.decay, link.eps, link.N) == (16, 0.9, 2e-5, 0)
    assert link.avg_mean.shape == (16, 2) and link.avg_mean.dtype == np.float32
    assert (link.avg_mean == 0).all()
    assert link.avg_projection.shape == (16, 2, 2)
    np.testing.assert_array_equal(link.avg_projection, np.broadcast_to(np.eye(2), (16, 2, 2)))
    assert list(link.params()) == []
    link = L.DecorrelatedBatchNormalization(6, 3, 0.5, 1e-3, np.float64)
    assert (link.groups, link.decay, link.eps) == (3, 0.5, 1e-3)
    assert link.avg_projection.shape == (3, 2, 2) and link.avg_mean.dtype == np.float64


def test_construction_errors():
    with pytest.raises(ValueError, match=r'groups must be a positive divisor of size \(8\)'):
        L.DecorrelatedBatchNormalization(8)  # default groups=16
    with pytest.raises(ValueError, match='divisor'):
        L.DecorrelatedBatchNormalization(6, groups=4)
    with pytest.raises(ValueError, match='divisor'):
        L.DecorrelatedBatchNormalization(6, groups=0)
    with pytest.raises(TypeError, match='size must be an int'):
        L.DecorrelatedBatchNormalization(6.0, groups=2)
    with pytest.raises(TypeError, match='groups must be an int'):
        L.DecorrelatedBatchNormalization(6, groups=None)


def test_training_and_test_mode_match_chainer():
    link = _make()
    x = np.array(X)
    y = link(x)
    assert y.dtype == np.float64 and y.shape == x.shape
    np.testing.assert_allclose(y.array[0], TRAIN_Y0, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(link.avg_mean, TRAIN_MEAN, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(link.avg_projection, TRAIN_PROJ, rtol=1e-12, atol=1e-14)
    assert link.N == 0
    with minichainer.using_config('train', False):
        y = link(x)
    np.testing.assert_allclose(y.array[0], TEST_Y0, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(link.avg_mean, TRAIN_MEAN, rtol=1e-12, atol=1e-14)
    # test mode is y = projection (x - mean) per group
    xg = x.transpose(1, 0, 2).reshape(2, 2, -1)
    ref = np.einsum('gij,gjm->gim', link.avg_projection, xg - link.avg_mean[:, :, None])
    np.testing.assert_allclose(y.array, ref.reshape(4, 4, 3).transpose(1, 0, 2), rtol=1e-12)


def test_finetune_matches_chainer():
    link = L.DecorrelatedBatchNormalization(4, groups=1, dtype=np.float64)
    x = np.array(X)
    link(x, finetune=True)
    assert link.N == 1
    link(x[:2] * 2, finetune=True)
    assert link.N == 2
    np.testing.assert_allclose(link.avg_mean, FT_MEAN, rtol=1e-12)
    np.testing.assert_allclose(link.avg_projection, FT_PROJ, rtol=1e-12, atol=1e-14)
    link.start_finetuning()
    assert link.N == 0
    with pytest.raises(TypeError, match='test'):
        link(x, test=True)


def test_float32_statistics_with_float32_input():
    link = L.DecorrelatedBatchNormalization(4, groups=2)
    x = np.array(X, np.float32)
    y = link(x)
    assert y.dtype == np.float32 and link.avg_mean.dtype == np.float32
    np.testing.assert_allclose(y.array[0], TRAIN_Y0, rtol=1e-2, atol=1e-2)
    with minichainer.using_config('train', False):
        assert link(x).dtype == np.float32


def test_backward_through_link():
    rng = np.random.RandomState(2)
    x = rng.uniform(-1, 1, (5, 4, 2))
    gy = rng.uniform(-1, 1, x.shape)
    link = L.DecorrelatedBatchNormalization(4, groups=2, eps=1e-2, dtype=np.float64)
    gradient_check.check_backward(link, x, gy, eps=1e-4, atol=1e-6, rtol=1e-5)
    link.avg_projection[...] = rng.uniform(0.5, 1, link.avg_projection.shape)
    with minichainer.using_config('train', False):
        gradient_check.check_backward(link, x, gy, atol=1e-7, rtol=1e-6)


def test_forget_recomputation_updates_statistics_once():
    x = np.array(X)
    link = _make()
    xv = minichainer.Variable(x)
    y = F.forget(link, xv)
    y.grad = np.ones_like(x)
    y.backward()
    np.testing.assert_allclose(link.avg_mean, TRAIN_MEAN, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(link.avg_projection, TRAIN_PROJ, rtol=1e-12, atol=1e-14)
    xr = minichainer.Variable(x)
    yr = _make()(xr)
    yr.grad = np.ones_like(x)
    yr.backward()
    np.testing.assert_allclose(xv.grad, xr.grad, rtol=1e-10, atol=1e-12)
    link2 = _make()
    y = F.forget(lambda v: link2(v, finetune=True), minichainer.Variable(x))
    y.grad = np.ones_like(x)
    y.backward()
    assert link2.N == 1
    np.testing.assert_allclose(link2.avg_mean, np.array(TRAIN_MEAN) / 0.2, rtol=1e-12)


def test_serialization_round_trip(tmp_path):
    src = _make()
    src(np.array(X), finetune=True)
    path = str(tmp_path / 'dbn.npz')
    serializers.save_npz(path, src)
    with np.load(path) as f:
        assert sorted(f.files) == ['N', 'avg_mean', 'avg_projection']
        assert f['avg_mean'].shape == (2, 2) and f['avg_projection'].shape == (2, 2, 2)
    dst = _make()
    serializers.load_npz(path, dst)
    assert dst.N == 1
    np.testing.assert_array_equal(dst.avg_mean, src.avg_mean)
    np.testing.assert_array_equal(dst.avg_projection, src.avg_projection)
    # missing keys are skipped with strict=False
    np.savez(path, N=np.array(3))
    dst = _make()
    serializers.load_npz(path, dst, strict=False)
    assert dst.N == 3 and (dst.avg_mean == 0).all()


@pytest.mark.parametrize('groups', [1, 2])
def test_loads_statistics_of_old_chainer(tmp_path, groups):
    # before Chainer 7 the statistics had no group axis: (C,) and (C, C)
    rng = np.random.RandomState(3)
    C = 4 // groups
    old_mean = rng.uniform(-1, 1, C).astype(np.float32)
    old_proj = rng.uniform(0.5, 1, (C, C)).astype(np.float32)
    path = str(tmp_path / 'old.npz')
    np.savez(path, avg_mean=old_mean, avg_projection=old_proj, N=np.array(0))
    link = L.DecorrelatedBatchNormalization(4, groups=groups)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        serializers.load_npz(path, link)
    assert len(caught) == (2 if groups != 1 else 0)
    for w in caught:
        assert 'older version' in str(w.message)
    np.testing.assert_array_equal(link.avg_mean, np.broadcast_to(old_mean, (groups, C)))
    np.testing.assert_array_equal(link.avg_projection,
                                  np.broadcast_to(old_proj, (groups, C, C)))
    x = rng.rand(5, 4, 2).astype(np.float32)
    with minichainer.using_config('train', False):
        link(x)
    link(x)
    np.savez(path, avg_mean=np.zeros((3, 4, 4)), avg_projection=old_proj, N=np.array(0))
    with pytest.raises(ValueError, match='avg_mean must be saved with 2 dimensions'):
        serializers.load_npz(path, L.DecorrelatedBatchNormalization(4, groups=groups))
