"""N-d (de)convolution dtype rules checked against Chainer 7's own tests."""
import numpy
import pytest

import minichainer
import minichainer.functions as F


@pytest.mark.parametrize('b_dtype', [numpy.float16, numpy.float64])
def test_convolution_nd_accepts_a_bias_of_another_float_dtype(b_dtype):
    x = minichainer.Variable(numpy.random.uniform(-1, 1, (2, 4, 4)).astype(numpy.float32))
    W = minichainer.Variable(numpy.random.uniform(-1, 1, (2, 4, 2)).astype(numpy.float32))
    b = minichainer.Variable(numpy.random.uniform(-1, 1, (2,)).astype(b_dtype))
    y = F.convolution_nd(x, W, b, pad=1)
    assert y.dtype == numpy.float32
    y.grad = numpy.ones_like(y.array)
    y.backward()
    assert b.grad.dtype == b_dtype
    numpy.testing.assert_allclose(b.grad, numpy.full((2,), y.shape[0] * y.shape[2]), rtol=1e-3)


@pytest.mark.parametrize('b_dtype', [numpy.float16, numpy.float64])
def test_deconvolution_nd_accepts_a_bias_of_another_float_dtype(b_dtype):
    x = minichainer.Variable(numpy.random.uniform(-1, 1, (2, 4, 3)).astype(numpy.float32))
    W = minichainer.Variable(numpy.random.uniform(-1, 1, (4, 2, 2)).astype(numpy.float32))
    b = minichainer.Variable(numpy.random.uniform(-1, 1, (2,)).astype(b_dtype))
    y = F.deconvolution_nd(x, W, b)
    assert y.dtype == numpy.float32
    y.grad = numpy.ones_like(y.array)
    y.backward()
    assert b.grad.dtype == b_dtype


def test_deconvolution_nd_with_a_non_positive_estimated_outsize_raises_assertion_error():
    x = numpy.zeros((2, 3, 4), numpy.float32)
    W = numpy.zeros((3, 2, 2), numpy.float32)
    with pytest.raises(AssertionError):
        F.deconvolution_nd(x, W, stride=1, pad=10)
