"""Fixed up/downsampling filters: `UpsamplingDeconvFilter` and `DownsamplingConvFilter`
(Long et al., https://arxiv.org/abs/1411.4038)."""
import numpy

from minichainer import backend
from minichainer import initializer


def _linear_filter(size, ndim, upsampling=True):
    # Separable "tent" kernel; normalized to sum 1 for downsampling.
    factor = (size + 1) // 2
    center = factor - 1. if size % 2 == 1 else factor - 0.5
    filt = 1.
    for grid in numpy.ogrid[(slice(size),) * ndim]:
        filt = filt * (1. - abs(grid - center) / factor)
    if not upsampling:
        filt = filt / filt.sum()
    return filt


class _ChannelShapeError(ValueError, AssertionError):
    # Chainer asserts on the channel shape; catchable as either
    pass


class _SamplingFilter(initializer.Initializer):

    def __init__(self, upsampling, interpolation='linear', dtype=None):
        if interpolation != 'linear':
            raise ValueError(
                "{}: interpolation must be 'linear', got {!r}".format(
                    type(self).__name__, interpolation))
        self.interpolation = interpolation
        self._upsampling = upsampling
        super().__init__(dtype)

    def __call__(self, array):
        self._check_dtype(array)
        name = type(self).__name__
        in_c, out_c = array.shape[:2]
        if not (in_c == out_c or out_c == 1):
            raise _ChannelShapeError(
                '{}: the array must have shape (c, c, k, ...) or (c, 1, k, ...), '
                'got {}'.format(name, array.shape))
        ksizes = set(array.shape[2:])
        if len(ksizes) != 1:
            raise ValueError('{}: all kernel sizes must be equal, got {}'.format(
                name, array.shape[2:]))
        filt = _linear_filter(ksizes.pop(), array.ndim - 2, self._upsampling)
        array[...] = 0.
        xp = backend.get_array_module(array)
        if xp is not numpy:  # the small filter is built on the host; one copy
            filt = xp.asarray(filt)
        channels = xp.arange(in_c)
        if out_c == 1:
            array[channels, 0, ...] = filt
        else:
            array[channels, channels, ...] = filt


class UpsamplingDeconvFilter(_SamplingFilter):
    """Fill a (de)convolution weight of shape (c, c or 1, k, k, ...) with a per-channel
    linear upsampling kernel (use with stride `(k + 1) // 2`)."""

    def __init__(self, interpolation='linear', dtype=None):
        super().__init__(True, interpolation, dtype)


class DownsamplingConvFilter(_SamplingFilter):
    """Fill a convolution weight with a per-channel normalized linear downsampling kernel."""

    def __init__(self, interpolation='linear', dtype=None):
        super().__init__(False, interpolation, dtype)
