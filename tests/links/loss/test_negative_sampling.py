import numpy as np
import pytest

import minichainer
import minichainer.links as L
from minichainer import gradient_check
from minichainer import optimizers
from minichainer.utils import WalkerAlias

from . import _common

COUNTS = [10, 5, 2, 5, 2]


class _Fixed:
    """Stands in for the sampler: always returns the same samples."""

    def __init__(self, samples):
        self.samples = np.asarray(samples, np.int32)

    def sample(self, shape):
        assert shape == self.samples.shape
        return self.samples.copy()


def _make(in_size=3, sample_size=2, seed=1):
    link = L.NegativeSampling(in_size, COUNTS, sample_size)
    link.W.array[...] = np.random.RandomState(seed).uniform(-1, 1, link.W.shape)
    return link


def _reference(W, x, t, samples):
    loss = np.zeros(len(x), np.float64)
    for i in range(len(x)):
        if t[i] == -1:
            continue
        f = W[samples[i]].astype(np.float64).dot(x[i])
        f[0] *= -1
        loss[i] = np.logaddexp(f, 0).sum()
    return loss


def test_parameters_and_sampler_as_chainer():
    link = L.NegativeSampling(4, COUNTS, 3)
    assert link.W.shape == (5, 4) and link.W.dtype == np.float32
    assert (link.W.array == 0).all()
    assert link.sample_size == 3
    expected = WalkerAlias(np.power(np.array(COUNTS, np.float32), np.float32(0.75)))
    np.testing.assert_array_equal(link.sampler.threshold, expected.threshold)
    np.testing.assert_array_equal(link.sampler.values, expected.values)
    assert [name for name, _ in link.namedparams()] == ['/W']


def test_power_and_dtype():
    link = L.NegativeSampling(2, COUNTS, 1, power=0.5, dtype=np.float16)
    p = np.power(np.array(COUNTS, np.float16), np.float16(0.5))
    np.testing.assert_array_equal(link.sampler.threshold, WalkerAlias(p).threshold)
    assert link.W.dtype == np.float32  # W follows config.dtype, as in Chainer
    with minichainer.using_config('dtype', np.float16):
        assert L.NegativeSampling(2, COUNTS, 1).W.dtype == np.float16


def test_same_draws_and_loss_as_chainer():
    # Computed once with Chainer 7.8.1: seed 3, W and x from RandomState(1)/(2).
    np.random.seed(3)
    link = _make()
    x = np.random.RandomState(2).uniform(-1, 1, (3, 3)).astype(np.float32)
    y, samples = link(x, np.array([0, 4, 1], np.int32), return_samples=True)
    assert samples.tolist() == [[0, 3, 4], [4, 0, 0], [1, 4, 2]]
    np.testing.assert_allclose(y.array, 7.0768757, rtol=1e-6)


@pytest.mark.parametrize('reduce', ['sum', 'no'])
@pytest.mark.parametrize('t', [[0, 2], [-1, 1, 2]])
def test_forward_matches_reference(reduce, t):
    link = _make()
    t = np.array(t, np.int32)
    x = np.random.uniform(-1, 1, (len(t), 3)).astype(np.float32)
    y, samples = link(x, t, reduce=reduce, return_samples=True)
    assert samples.shape == (len(t), 3) and samples.dtype == np.int32
    assert (samples[t != -1, 0] == t[t != -1]).all()
    expected = _reference(link.W.array, x, t, samples)
    if reduce == 'sum':
        assert y.shape == ()
        expected = expected.sum()
    else:
        assert y.shape == (len(t),)
    np.testing.assert_allclose(y.array, expected, rtol=1e-5, atol=1e-6)
    # Replaying the returned samples gives the same loss.
    link.sampler = _Fixed(samples)
    np.testing.assert_array_equal(link(x, t, reduce=reduce).array, y.array)


def test_gradients():
    link = _make(sample_size=2)
    link.sampler = _Fixed([[0, 3, 1], [0, 0, 4], [2, 2, 1]])
    x = np.random.uniform(-1, 1, (3, 3))
    W = np.random.uniform(-1, 1, (5, 3))
    link.W.array = W
    t = np.array([0, -1, 2], np.int32)
    gy = np.random.uniform(-1, 1, (3,))

    def f(x):
        return link(x, t, reduce='no')

    gradient_check.check_backward(f, x, gy, params=(link.W,), dtype=np.float64)
    ggx = np.random.uniform(-1, 1, x.shape)
    gradient_check.check_double_backward(f, x, gy, ggx, dtype=np.float64)


def test_bad_arguments():
    with pytest.raises(ValueError, match='NegativeSampling: sample_size must be a positive '
                                         'int, got 0'):
        L.NegativeSampling(3, COUNTS, 0)
    with pytest.raises(ValueError, match='sample_size'):
        L.NegativeSampling(3, COUNTS, 2.0)
    with pytest.raises(ValueError, match='counts must be a non-empty'):
        L.NegativeSampling(3, [], 2)
    with pytest.raises(ValueError, match='non-negative'):
        L.NegativeSampling(3, [1, -2], 2)
    with pytest.raises(TypeError, match='in_size'):
        L.NegativeSampling(None, COUNTS, 2)
    link = _make()
    with pytest.raises(ValueError, match="'sum' and 'no'"):
        link(np.zeros((2, 3), np.float32), np.array([0, 1], np.int32), reduce='mean')
    with pytest.raises(TypeError, match='unexpected'):
        link(np.zeros((2, 3), np.float32), np.array([0, 1], np.int32), samples=True)


def test_serialization_copy_and_device(tmp_path):
    link = _common.check_npz_copy_and_device(
        lambda: _make(seed=np.random.randint(100)), ['W'], tmp_path)
    table = link.sampler.threshold
    assert link.to_device('@numpy') is link and link.sampler.threshold is table


def test_skip_gram_trains():
    # A tiny word2vec skip-gram: each centre word predicts its neighbours.
    rs = np.random.RandomState(0)
    corpus = np.array([0, 1, 2, 3, 4, 5] * 20, np.int32)
    counts = np.bincount(corpus)
    np.random.seed(0)

    class SkipGram(minichainer.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.embed = L.EmbedID(6, 4)
                self.loss = L.NegativeSampling(4, counts, 3)

        def forward(self, centre, context):
            return self.loss(self.embed(centre), context) / len(centre)

    model = SkipGram()
    opt = optimizers.Adam(0.05)
    opt.setup(model)
    centre = corpus[1:-1]
    context = np.concatenate([corpus[:-2], corpus[2:]])
    centre = np.concatenate([centre, centre])
    losses = []
    for _ in range(40):
        idx = rs.permutation(len(centre))[:32]
        loss = model(centre[idx], context[idx])
        model.cleargrads()
        loss.backward()
        opt.update()
        losses.append(float(loss.array))
    assert np.mean(losses[-5:]) < 0.6 * np.mean(losses[:5])
    # The positive pairs now score higher than random ones.
    e = model.embed.W.array
    w = model.loss.W.array
    pos = np.mean([e[c].dot(w[(c + 1) % 6]) for c in range(6)])
    neg = np.mean([e[c].dot(w[(c + 3) % 6]) for c in range(6)])
    assert pos > neg
