import numpy as np

import minichainer.links as L

from .. import _util


def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


def test_forward_matches_formula():
    link = L.Highway(3)
    x = np.random.randn(4, 3).astype(np.float32)
    h = np.maximum(x @ link.plain.W.array.T + link.plain.b.array, 0)
    t = _sigmoid(x @ link.transform.W.array.T + link.transform.b.array)
    np.testing.assert_allclose(link(x).array, h * t + x * (1 - t), rtol=1e-5, atol=1e-6)


def test_initialization():
    np.random.seed(1)
    link = L.Highway(3)
    np.random.seed(1)
    Wh = np.random.normal(0, np.sqrt(1 / 3.), (3, 3)).astype(np.float32)
    Wt = np.random.normal(0, np.sqrt(1 / 3.), (3, 3)).astype(np.float32)
    np.testing.assert_array_equal(link.plain.W.array, Wh)
    np.testing.assert_array_equal(link.transform.W.array, Wt)
    assert (link.transform.b.array == -1).all() and (link.plain.b.array == 0).all()
    assert [n for n, _ in L.Highway(2, nobias=True).namedparams()] == [
        '/plain/W', '/transform/W']


def test_serialization_and_copy(tmp_path):
    _util.check_npz_round_trip(lambda: L.Highway(3), tmp_path)
    _util.check_copy_modes(L.Highway(3))
