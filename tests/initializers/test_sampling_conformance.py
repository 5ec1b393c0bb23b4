import numpy
import pytest

from minichainer import initializers


@pytest.mark.parametrize('cls', [initializers.UpsamplingDeconvFilter,
                                 initializers.DownsamplingConvFilter])
def test_channel_mismatch_is_an_assertion_error_as_in_chainer(cls):
    w = numpy.empty((2, 3, 4, 4), dtype=numpy.float32)
    with pytest.raises(AssertionError):
        cls()(w)
    with pytest.raises(ValueError, match='shape'):
        cls()(w)
