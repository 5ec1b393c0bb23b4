import numpy as np
import pytest

import minichainer
import minichainer.links as L
from minichainer import gradient_check
from minichainer.utils import WalkerAlias

from . import _common

COUNTS = [10, 5, 2, 5, 2]


def _make(in_size=3, sample_size=3, seed=1):
    link = L.BlackOut(in_size, COUNTS, sample_size)
    link.W.array[...] = np.random.RandomState(seed).uniform(-1, 1, link.W.shape)
    return link


def _reference(W, x, t, samples):
    W = W.astype(np.float64)
    loss = 0.0
    for b in range(len(x)):
        neg = np.exp(W[samples[b]].dot(x[b]))
        y0 = W[t[b]].dot(x[b])
        z = neg.sum() + np.exp(y0)
        loss -= y0 - np.log(z) + np.log(1 - neg / z).sum()
    return loss / len(x)


def test_parameters_and_sampler_as_chainer():
    link = L.BlackOut(4, COUNTS, 3)
    # Chainer creates W without an initializer: NaN until the user sets it.
    assert link.W.shape == (5, 4) and link.W.dtype == np.float32
    assert np.isnan(link.W.array).all()
    expected = WalkerAlias(np.array(COUNTS, np.float32))
    np.testing.assert_array_equal(link.sampler.values, expected.values)
    np.testing.assert_array_equal(link.sampler.threshold, expected.threshold)
    assert link.sample_size == 3 and link.sample_data is None
    with minichainer.using_config('dtype', np.float64):
        assert L.BlackOut(2, COUNTS, 1).W.dtype == np.float64


def test_same_draws_and_loss_as_chainer():
    # Computed once with Chainer 7.8.1.
    np.random.seed(4)
    link = _make()
    x = np.random.RandomState(2).uniform(-1, 1, (3, 3)).astype(np.float32)
    y = link(x, np.array([0, 4, 1], np.int32))
    np.testing.assert_allclose(y.array, 2.3439264, rtol=1e-6)
    np.random.seed(4)
    assert link.sampler.sample((3, 3)).tolist() == [[0, 0, 0], [0, 0, 4], [0, 2, 4]]


@pytest.mark.parametrize('dtype,tol', [(np.float16, 5e-3), (np.float32, 1e-5),
                                       (np.float64, 1e-10)])
def test_forward_matches_reference(dtype, tol):
    with minichainer.using_config('dtype', dtype):
        link = _make(in_size=4, sample_size=7)
        x = np.random.uniform(-1, 1, (5, 4)).astype(dtype)
        t = np.random.randint(0, 5, 5).astype(np.int32)
        link.sample_data = link.sampler.sample((5, 7))
        y = link(x, t)
    assert y.shape == () and y.dtype == dtype
    expected = _reference(link.W.array, x.astype(np.float64), t, link.sample_data)
    np.testing.assert_allclose(float(y.array), expected, rtol=tol, atol=tol)


def test_draws_new_samples_each_call():
    link = _make()
    x = np.random.uniform(-1, 1, (4, 3)).astype(np.float32)
    t = np.array([0, 1, 2, 3], np.int32)
    np.random.seed(9)
    y = link(x, t)
    np.random.seed(9)
    samples = link.sampler.sample((4, 3))
    np.testing.assert_allclose(y.array, _reference(link.W.array, x, t, samples), rtol=1e-5)


def test_gradients():
    link = _make()
    link.W.array = np.random.uniform(-1, 1, (5, 3))
    link.sample_data = np.array([[1, 2, 3], [0, 4, 4], [2, 1, 0]], np.int32)
    x = np.random.uniform(-1, 1, (3, 3))
    t = np.array([0, 3, 4], np.int32)
    gradient_check.check_backward(lambda x: link(x, t), x, np.random.uniform(-1, 1, ()),
                                  params=(link.W,), dtype=np.float64)


def test_bad_arguments():
    with pytest.raises(ValueError, match='BlackOut: sample_size must be a positive int'):
        L.BlackOut(3, COUNTS, 0)
    with pytest.raises(ValueError, match='BlackOut: counts must be a non-empty'):
        L.BlackOut(3, [[1, 2]], 2)
    with pytest.raises(ValueError, match='BlackOut: in_size must be non-negative'):
        L.BlackOut(-1, COUNTS, 2)


def test_serialization_copy_and_device(tmp_path):
    _common.check_npz_copy_and_device(lambda: _make(seed=np.random.randint(100)), ['W'],
                                      tmp_path)
