import numpy as np

import minichainer.links as L

from .. import _util


def test_forward_default_slope():
    link = L.PReLU()
    assert link.W.shape == () and float(link.W.array) == np.float32(0.25)
    x = np.array([[-2., 1.], [3., -4.]], np.float32)
    np.testing.assert_allclose(link(x).array, np.where(x > 0, x, 0.25 * x))


def test_per_channel_slope():
    link = L.PReLU(shape=(2,), init=0.5)
    link.W.array[...] = [0.1, 0.2]
    x = -np.ones((3, 2, 4), np.float32)
    y = link(x).array
    np.testing.assert_allclose(y[:, 0], -0.1)
    np.testing.assert_allclose(y[:, 1], -0.2)


def test_serialization_and_copy(tmp_path):
    def make():
        link = L.PReLU((3,))
        link.W.array[...] = np.random.randn(3)
        return link
    _util.check_npz_round_trip(make, tmp_path)
    _util.check_copy_modes(L.PReLU((3,)))


def test_swish_link():
    link = L.Swish(None)
    x = np.random.randn(2, 3).astype(np.float32)
    y = link(x)
    assert link.beta.shape == (3,) and (link.beta.array == 1).all()
    np.testing.assert_allclose(y.array, x / (1 + np.exp(-x)), rtol=1e-5, atol=1e-6)
    link = L.Swish((3,), beta_init=2.0)
    np.testing.assert_allclose(link(x).array, x / (1 + np.exp(-2 * x)), rtol=1e-5,
                               atol=1e-6)
