import numpy as np
import pytest

import minichainer.links as L


def test_bias_with_learnt_parameter():
    link = L.Bias(axis=1, shape=(3,))
    assert (link.b.array == 0).all()
    link.b.array[...] = [1, 2, 3]
    x = np.zeros((2, 3, 2), np.float32)
    np.testing.assert_array_equal(link(x).array, np.broadcast_to(
        np.array([1, 2, 3], np.float32)[None, :, None], (2, 3, 2)))


def test_bias_with_two_inputs():
    link = L.Bias(axis=1)
    assert list(link.params()) == []
    x = np.ones((2, 3), np.float32)
    y = link(x, np.array([1, 2, 3], np.float32))
    np.testing.assert_array_equal(y.array, [[2, 3, 4], [2, 3, 4]])
    with pytest.raises(TypeError, match='2 inputs'):
        link(x)


def test_scale_with_learnt_w_and_bias():
    link = L.Scale(axis=1, W_shape=(3,), bias_term=True)
    assert [n for n, _ in link.namedparams()] == ['/W', '/bias/b']
    link.W.array[...] = [1, 2, 3]
    link.bias.b.array[...] = 1
    x = np.ones((2, 3), np.float32)
    np.testing.assert_array_equal(link(x).array, [[2, 3, 4], [2, 3, 4]])


def test_scale_with_two_inputs_and_bias_shape():
    link = L.Scale(axis=1, bias_term=True, bias_shape=(2,))
    y = link(np.ones((1, 2), np.float32), np.array([3, 4], np.float32))
    np.testing.assert_array_equal(y.array, [[3, 4]])
    with pytest.raises(ValueError, match='bias_shape'):
        L.Scale(bias_term=True)
