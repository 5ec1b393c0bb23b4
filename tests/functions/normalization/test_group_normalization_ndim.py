import warnings

import numpy
import pytest

import minichainer.functions as F
from minichainer import gradient_check
from minichainer.utils import type_check


def _reference(x, groups, gamma, beta, eps):
    b, c = x.shape[:2]
    g = x.reshape(b, groups, -1)
    y = (g - g.mean(axis=2, keepdims=True)) / numpy.sqrt(g.var(axis=2, keepdims=True) + eps)
    shape = (1, c) + (1,) * (x.ndim - 2)
    return y.reshape(x.shape) * gamma.reshape(shape) + beta.reshape(shape)


def test_two_dimensional_input_as_chainer():
    # Chainer accepts (batch, channels): x.ndim >= 2.
    rng = numpy.random.RandomState(0)
    x = rng.randn(3, 4)
    gamma, beta = rng.randn(4), rng.randn(4)
    y = F.group_normalization(x, 2, gamma, beta, eps=1e-5)
    numpy.testing.assert_allclose(y.array, _reference(x, 2, gamma, beta, 1e-5), rtol=1e-6)
    gradient_check.check_backward(lambda x, g, b: F.group_normalization(x, 2, g, b),
                                  (x, gamma, beta), rng.randn(3, 4), atol=1e-6, rtol=1e-5)


def test_one_element_per_group_does_not_warn():
    x = numpy.arange(3, dtype=numpy.float32).reshape(1, 3)
    gamma = numpy.ones(3, numpy.float32)
    beta = numpy.array([1, 2, 3], numpy.float32)
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        y = F.group_normalization(x, 3, gamma, beta)
    numpy.testing.assert_allclose(y.array, [[1, 2, 3]])


def test_one_dimensional_input_is_rejected():
    with pytest.raises(type_check.InvalidType):
        F.group_normalization(numpy.ones(4, numpy.float32), 2,
                              numpy.ones(4, numpy.float32), numpy.zeros(4, numpy.float32))
