"""Inputs and tolerances shared by the pooling tests."""
import numpy


def distinct(shape, dtype=numpy.float64, seed=0):
    """An input of ``shape`` whose elements are all different (no ties for max pooling)."""
    rng = numpy.random.RandomState(seed)
    x = rng.permutation(int(numpy.prod(shape))).reshape(shape).astype(numpy.float64)
    return ((x - x.size / 2) / x.size * 4).astype(dtype)


def grad_tolerance(dtype):
    """``check_backward`` options for ``dtype`` (float16 checked in float64)."""
    if dtype == numpy.float16:
        return {'dtype': numpy.float64, 'atol': 1e-2, 'rtol': 1e-1}
    if dtype == numpy.float32:
        return {'atol': 1e-3, 'rtol': 1e-2}
    return {'atol': 1e-6, 'rtol': 1e-5}
