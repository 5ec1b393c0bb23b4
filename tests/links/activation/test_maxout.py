import numpy as np
import pytest

from minichainer import initializers
import minichainer.links as L

from .. import _util


def test_forward_matches_numpy():
    link = L.Maxout(3, 2, 4)
    assert link.linear.W.shape == (8, 3)
    x = np.random.randn(5, 3).astype(np.float32)
    lin = x @ link.linear.W.array.T + link.linear.b.array
    np.testing.assert_allclose(link(x).array, lin.reshape(5, 2, 4).max(axis=2), rtol=1e-6)


def test_default_initialization_draws_like_linear():
    np.random.seed(3)
    link = L.Maxout(3, 2, 4)
    np.testing.assert_array_equal(link.linear.W.array, _util.lecun(3, (8, 3)))


def test_array_and_callable_initializers():
    W = np.arange(24, dtype=np.float32).reshape(2, 4, 3)
    b = np.arange(8, dtype=np.float32).reshape(2, 4)
    link = L.Maxout(3, 2, 4, initialW=W, initial_bias=b)
    np.testing.assert_array_equal(link.linear.W.array, W.reshape(8, 3))
    np.testing.assert_array_equal(link.linear.b.array, b.reshape(8))
    seen = []

    def init(array):
        seen.append(array.shape)
        array[...] = 1

    link = L.Maxout(3, 2, 4, initialW=init, initial_bias=initializers.Constant(2))
    assert seen == [(2, 4, 3)] and (link.linear.W.array == 1).all()
    assert L.Maxout(3, 2, 4, initial_bias=None).linear.b is None
    with pytest.raises(ValueError, match='initialW'):
        L.Maxout(3, 2, 4, initialW=np.zeros((8, 3), np.float32))
    with pytest.raises(ValueError, match='initial_bias'):
        L.Maxout(3, 2, 4, initial_bias=np.zeros(8, np.float32))


def test_serialization_and_copy(tmp_path):
    _util.check_npz_round_trip(lambda: L.Maxout(3, 2, 2), tmp_path)
    _util.check_copy_modes(L.Maxout(3, 2, 2))
