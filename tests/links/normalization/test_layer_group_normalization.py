import numpy as np
import pytest

import minichainer.links as L

from .. import _util


def test_layer_normalization_forward_and_lazy():
    link = L.LayerNormalization()
    assert link.gamma.array is None
    x = np.random.randn(4, 5).astype(np.float32)
    y = link(x)
    assert link.gamma.shape == (5,) and (link.gamma.array == 1).all()
    mu = x.mean(1, keepdims=True)
    expected = (x - mu) / np.sqrt(x.var(1, keepdims=True) + 1e-6)
    np.testing.assert_allclose(y.array, expected, rtol=1e-4, atol=1e-4)
    link = L.LayerNormalization(3, initial_gamma=2, initial_beta=1)
    assert (link.gamma.array == 2).all() and (link.beta.array == 1).all()


def test_group_normalization_forward_and_lazy():
    link = L.GroupNormalization(2)
    x = np.random.randn(3, 4, 2, 2).astype(np.float32)
    y = link(x)
    assert link.gamma.shape == (4,)
    g = x.reshape(3, 2, -1)
    expected = ((g - g.mean(-1, keepdims=True)) / np.sqrt(g.var(-1, keepdims=True) + 1e-5))
    np.testing.assert_allclose(y.array, expected.reshape(x.shape), rtol=1e-4, atol=1e-4)
    with pytest.raises(ValueError, match='2 dimensions'):
        L.GroupNormalization(2)(np.ones((4,), np.float32))


def test_serialization_and_copy(tmp_path):
    def prepare(link):
        link.gamma.array[...] = np.random.randn(*link.gamma.shape)
    _util.check_npz_round_trip(lambda: L.LayerNormalization(3), tmp_path, prepare)
    _util.check_npz_round_trip(lambda: L.GroupNormalization(2, 4), tmp_path, prepare)
    _util.check_copy_modes(L.LayerNormalization(3))
    _util.check_copy_modes(L.GroupNormalization(2, 4))
