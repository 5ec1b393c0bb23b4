import numpy as np
import pytest

import minichainer.links as L

from .. import _util


def test_lookup_and_default_initializer():
    np.random.seed(5)
    link = L.EmbedID(6, 3)
    np.random.seed(5)
    expected = np.random.normal(0.0, 1.0, (6, 3)).astype(np.float32)
    np.testing.assert_array_equal(link.W.array, expected)
    x = np.array([[0, 5], [2, 2]], np.int32)
    y = link(x)
    assert y.shape == (2, 2, 3)
    np.testing.assert_array_equal(y.array, link.W.array[x])


def test_ignore_label_and_initial_w():
    W = np.arange(12, dtype=np.float32).reshape(4, 3)
    link = L.EmbedID(4, 3, initialW=W, ignore_label=-1)
    y = link(np.array([1, -1, 3], np.int32))
    np.testing.assert_array_equal(y.array, [W[1], np.zeros(3), W[3]])


def test_gradient_accumulates_rows():
    link = L.EmbedID(4, 2)
    link.cleargrads()
    y = link(np.array([1, 1, 3], np.int32))
    y.grad = np.ones((3, 2), np.float32)
    y.backward()
    np.testing.assert_array_equal(link.W.grad, [[0, 0], [2, 2], [0, 0], [1, 1]])


def test_out_of_range_id_is_an_error():
    link = L.EmbedID(3, 2)
    with pytest.raises(Exception):
        link(np.array([3], np.int32))


def test_serialization_and_copy(tmp_path):
    _util.check_npz_round_trip(lambda: L.EmbedID(5, 2), tmp_path)
    _util.check_copy_modes(L.EmbedID(5, 2))


def test_from_params():
    W = np.arange(6, dtype=np.float32).reshape(3, 2)
    link = L.EmbedID.from_params(W, ignore_label=-1)
    np.testing.assert_array_equal(link.W.array, W)
    assert link.W.array is not W and link.ignore_label == -1
