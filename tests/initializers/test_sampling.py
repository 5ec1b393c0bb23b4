import numpy as np
import pytest

from minichainer import initializers


def test_upsampling_filter_values():
    a = np.empty((2, 2, 4, 4), np.float32)
    initializers.UpsamplingDeconvFilter()(a)
    tent = np.array([0.25, 0.75, 0.75, 0.25])
    np.testing.assert_allclose(a[0, 0], np.outer(tent, tent))
    np.testing.assert_array_equal(a[0, 1], 0)
    odd = np.empty((1, 1, 3, 3), np.float64)
    initializers.UpsamplingDeconvFilter()(odd)
    np.testing.assert_allclose(odd[0, 0], np.outer([0.5, 1, 0.5], [0.5, 1, 0.5]))


def test_downsampling_filter_is_normalized_and_depthwise_form():
    a = np.empty((3, 1, 3, 3, 3), np.float32)
    initializers.DownsamplingConvFilter()(a)
    np.testing.assert_allclose(a[:, 0].sum(axis=(1, 2, 3)), 1, rtol=1e-6)


def test_bad_input():
    with pytest.raises(ValueError, match='interpolation'):
        initializers.UpsamplingDeconvFilter('cubic')
    with pytest.raises(ValueError, match='kernel sizes'):
        initializers.UpsamplingDeconvFilter()(np.empty((1, 1, 2, 3), np.float32))
    with pytest.raises(ValueError, match='shape'):
        initializers.DownsamplingConvFilter()(np.empty((2, 3, 2, 2), np.float32))
