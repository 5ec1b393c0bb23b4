import numpy as np
import pytest

import minichainer
import minichainer.links as L

from .. import _util


def _bn_ref(x, gamma, beta, axis, eps):
    mean = x.mean(axis=axis, keepdims=True)
    var = x.var(axis=axis, keepdims=True)
    return gamma * (x - mean) / np.sqrt(var + eps) + beta


def test_training_forward_and_running_statistics():
    link = L.BatchNormalization(3, decay=0.8)
    assert link.avg_mean.shape == (3,) and (link.avg_var == 1).all()
    assert [n for n, _ in link.namedparams()] == ['/beta', '/gamma']
    link.gamma.array[...] = [1, 2, 3]
    link.beta.array[...] = [0, 1, -1]
    x = np.random.randn(5, 3, 2, 2).astype(np.float32)
    y = link(x)
    np.testing.assert_allclose(
        y.array, _bn_ref(x, link.gamma.array[None, :, None, None],
                         link.beta.array[None, :, None, None], (0, 2, 3), 2e-5),
        rtol=1e-4, atol=1e-4)
    m = 5 * 2 * 2
    mean = x.mean(axis=(0, 2, 3))
    unbiased = x.var(axis=(0, 2, 3)) * m / (m - 1)
    np.testing.assert_allclose(link.avg_mean, 0.2 * mean, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(link.avg_var, 0.8 + 0.2 * unbiased, rtol=1e-5)


def test_test_mode_uses_running_statistics_and_changes_nothing():
    link = L.BatchNormalization(2)
    link.avg_mean[...] = [1, -1]
    link.avg_var[...] = [4, 9]
    x = np.random.randn(3, 2).astype(np.float32)
    with minichainer.using_config('train', False):
        y = link(x)
    expected = (x - np.array([1, -1])) / np.sqrt(np.array([4, 9]) + 2e-5)
    np.testing.assert_allclose(y.array, expected, rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(link.avg_mean, [1, -1])
    assert link.N == 0


def test_finetune_accumulates_exact_statistics():
    link = L.BatchNormalization(2)
    xs = [np.random.randn(4, 2).astype(np.float32) for _ in range(3)]
    for x in xs:
        link(x, finetune=True)
    assert link.N == 3
    np.testing.assert_allclose(link.avg_mean, np.mean([x.mean(0) for x in xs], 0),
                               rtol=1e-5, atol=1e-6)
    link.start_finetuning()
    assert link.N == 0


def test_lazy_axis_and_no_gamma_beta():
    link = L.BatchNormalization(axis=(0, 2), use_gamma=False, use_beta=False)
    assert link.avg_mean is None and list(link.params()) == []
    x = np.random.randn(4, 3, 5).astype(np.float32)
    y = link(x)
    assert link.avg_mean.shape == (3,)
    np.testing.assert_allclose(y.array, _bn_ref(x, 1, 0, (0, 2), 2e-5), rtol=1e-4,
                               atol=1e-4)
    link = L.BatchNormalization(axis=0)
    link(np.random.randn(4, 3, 2).astype(np.float32))
    assert link.avg_mean.shape == (3, 2) and link.gamma.shape == (3, 2)


def test_arguments():
    with pytest.raises(RuntimeError, match='size or axis'):
        L.BatchNormalization()
    link = L.BatchNormalization(2, dtype=np.float64, initial_gamma=2, initial_beta=1,
                                initial_avg_mean=3, initial_avg_var=5)
    assert link.gamma.dtype == np.float64 and link.avg_mean.dtype == np.float64
    assert (link.gamma.array == 2).all() and (link.beta.array == 1).all()
    assert (link.avg_mean == 3).all() and (link.avg_var == 5).all()
    with pytest.raises(ValueError, match='train'):
        link(np.ones((2, 2)), test=True)
    with pytest.raises(TypeError, match='bogus'):
        link(np.ones((2, 2)), bogus=True)


def test_persistent_values_are_saved(tmp_path):
    from minichainer import serializers

    def prepare(link):
        link(np.random.randn(4, 3).astype(np.float32), finetune=True)

    src, dst = _util.check_npz_round_trip(lambda: L.BatchNormalization(3), tmp_path,
                                          prepare=prepare)
    np.testing.assert_array_equal(dst.avg_mean, src.avg_mean)
    np.testing.assert_array_equal(dst.avg_var, src.avg_var)
    assert dst.N == 1
    path = str(tmp_path / 'bn.npz')
    serializers.save_npz(path, src)
    with np.load(path) as f:
        assert sorted(f.files) == ['N', 'avg_mean', 'avg_var', 'beta', 'gamma']


def test_copy_modes_copy_running_statistics():
    link = L.BatchNormalization(3)
    link.avg_mean[...] = 2
    shared, copied, _ = _util.check_copy_modes(link)
    assert shared.avg_mean is link.avg_mean
    assert copied.avg_mean is not link.avg_mean and (copied.avg_mean == 2).all()


def test_batch_normalization_by_axis_loads_its_statistics_before_first_use():
    # avg_mean/avg_var are persistents from the start (None until the first input), as
    # in Chainer, so a link built with axis only can be deserialized before any forward
    src = L.BatchNormalization(axis=0)
    src(np.random.RandomState(0).rand(4, 3).astype(np.float32))
    target = {}
    src.serialize(minichainer.serializers.DictionarySerializer(target))
    dst = L.BatchNormalization(axis=0)
    assert dst.avg_mean is None
    dst.serialize(minichainer.serializers.NpzDeserializer(target))
    np.testing.assert_array_equal(dst.avg_mean, src.avg_mean)
    np.testing.assert_array_equal(dst.avg_var, src.avg_var)
    np.testing.assert_array_equal(dst.gamma.array, src.gamma.array)
