"""Array comparison for tests (`chainer.testing.assert_allclose`)."""
import numpy

from minichainer import backend
from minichainer import variable


def _as_numpy(x):
    if isinstance(x, variable.Variable):
        x = x.array
    if x is not None and not isinstance(x, (numpy.ndarray, numpy.generic)) and \
            isinstance(x, backend.get_array_types()):
        return backend.CpuDevice().send(x)  # a GPU array: compared on the host
    return numpy.asarray(x)


def assert_allclose(x, y, atol=1e-5, rtol=1e-4, verbose=True):
    """Assert `|x - y| <= atol + rtol * |y|` elementwise, with a readable report.

    Accepts arrays, Variables and scalars; shapes must broadcast.
    """
    x = _as_numpy(x)
    y = _as_numpy(y)
    try:
        numpy.testing.assert_allclose(x, y, atol=atol, rtol=rtol, verbose=verbose)
    except AssertionError as e:
        lines = [str(e)]
        try:
            xb, yb = numpy.broadcast_arrays(x, y)
            err = numpy.abs(xb.astype(numpy.float64) - yb.astype(numpy.float64))
            if err.size:
                index = numpy.unravel_index(numpy.argmax(err), err.shape)
                lines.append('max absolute error: {} at {} (x={}, y={})'.format(
                    err[index], index, xb[index], yb[index]))
        except (ValueError, TypeError):
            pass
        lines.append('atol: {}  rtol: {}'.format(atol, rtol))
        raise AssertionError('\n'.join(lines)) from None


def _as_noncontiguous_array(array):
    """Return a non-C-contiguous copy of an array (or of each array of a list/tuple).

    Arrays of size <= 1 and None are returned as they are.
    """
    if isinstance(array, (list, tuple)):
        return type(array)([_as_noncontiguous_array(a) for a in array])
    if array is None or array.size <= 1:
        return array
    slices = (slice(None, None, 2),) * array.ndim
    xp = backend.get_array_module(array)  # on the array's device
    buffer = xp.empty(tuple(2 * s for s in array.shape), dtype=array.dtype)
    buffer[slices] = array
    result = buffer[slices]
    assert not result.flags.c_contiguous
    return result
