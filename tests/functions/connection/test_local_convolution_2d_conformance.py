"""Chainer's LocalConvolution2DFunction entry point (used by Chainer's own tests)."""
import numpy
import pytest

import minichainer
from minichainer.functions.connection import local_convolution_2d as lc
from minichainer.utils import type_check


def test_local_convolution_2d_function_apply_matches_the_function():
    rng = numpy.random.RandomState(0)
    x = rng.uniform(-1, 1, (2, 3, 4, 4)).astype(numpy.float32)
    W = rng.uniform(-1, 1, (6, 2, 2, 3, 3, 3)).astype(numpy.float32)
    b = rng.uniform(-1, 1, (6, 2, 2)).astype(numpy.float32)
    y, = lc.LocalConvolution2DFunction(1).apply((x, W, b))
    assert isinstance(y, minichainer.Variable)
    numpy.testing.assert_allclose(y.array, lc.local_convolution_2d(x, W, b).array)
    with pytest.raises(type_check.InvalidType):
        lc.LocalConvolution2DFunction(1).apply((x,))
