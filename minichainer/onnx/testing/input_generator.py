"""Deterministic test inputs: `increasing`, `nonzero_increasing`, `positive_increasing`."""
import numpy


def shaped_range(*shape, dtype=numpy.float32):
    """`0, 1, 2, ...` in `shape` (integers)."""
    return numpy.arange(int(numpy.prod(shape))).reshape(shape)


def _increasing(*shape, dtype=numpy.float32, negative=True, bias=0):
    r = shaped_range(*shape)
    if negative:
        r = r - r.size // 2
    if numpy.dtype(dtype).kind == 'f':
        r = r * 0.5
    return (r + bias).astype(dtype)


def increasing(*shape, dtype=numpy.float32):
    """A monotonically increasing array with negative values, zero and (for floats)
    halves: ``increasing(3, 4)`` is ``-3, -2.5, ..., 2.5``."""
    return _increasing(*shape, dtype=dtype)


def nonzero_increasing(*shape, dtype=numpy.float32, bias=1e-7):
    """As `increasing`, shifted by `bias` so that no element is zero (for divisors)."""
    if numpy.dtype(dtype) not in (numpy.float32, numpy.float64):
        raise ValueError('nonzero_increasing: dtype must be float32 or float64, got {}'
                         .format(dtype))
    return _increasing(*shape, dtype=dtype, bias=bias)


def positive_increasing(*shape, dtype=numpy.float32, bias=1e-7):
    """`bias, bias + 0.5, ...`: positive values only (for log, sqrt)."""
    return _increasing(*shape, dtype=dtype, negative=False, bias=bias)
