import numpy as np
import pytest

import minichainer.links as L

from .. import _util


def test_forward_matches_einsum():
    link = L.Bilinear(2, 3, 4)
    e1 = np.random.randn(5, 2).astype(np.float32)
    e2 = np.random.randn(5, 3).astype(np.float32)
    expected = (np.einsum('ni,nj,ijk->nk', e1, e2, link.W.array) + e1 @ link.V1.array
                + e2 @ link.V2.array + link.b.array)
    np.testing.assert_allclose(link(e1, e2).array, expected, rtol=1e-5, atol=1e-6)


def test_initialization_order_and_nobias():
    np.random.seed(2)
    link = L.Bilinear(2, 3, 4)
    np.random.seed(2)
    W = np.random.normal(0, np.sqrt(1 / 12.), (2, 3, 4)).astype(np.float32)
    V1 = np.random.normal(0, np.sqrt(1 / 4.), (2, 4)).astype(np.float32)
    V2 = np.random.normal(0, np.sqrt(1 / 4.), (3, 4)).astype(np.float32)
    np.testing.assert_array_equal(link.W.array, W)
    np.testing.assert_array_equal(link.V1.array, V1)
    np.testing.assert_array_equal(link.V2.array, V2)
    assert (link.b.array == 0).all()
    nb = L.Bilinear(2, 3, 4, nobias=True)
    assert [n for n, _ in nb.namedparams()] == ['/W']
    e1, e2 = np.ones((1, 2), np.float32), np.ones((1, 3), np.float32)
    np.testing.assert_allclose(nb(e1, e2).array, nb.W.array.sum(axis=(0, 1))[None],
                               rtol=1e-5)


def test_initial_bias_tuple_and_bad_input():
    V1, V2, b = np.ones((2, 4), np.float32), np.zeros((3, 4), np.float32), 3
    link = L.Bilinear(2, 3, 4, initial_bias=(V1, V2, b))
    assert (link.V1.array == 1).all() and (link.b.array == 3).all()
    with pytest.raises(ValueError, match='initial_bias'):
        L.Bilinear(2, 3, 4, initial_bias=1)
    with pytest.raises(ValueError, match='initialW'):
        L.Bilinear(2, 3, 4, initialW=np.zeros((2, 3), np.float32))


def test_serialization_and_copy(tmp_path):
    _util.check_npz_round_trip(lambda: L.Bilinear(2, 2, 3), tmp_path)
    _util.check_copy_modes(L.Bilinear(2, 2, 3))
