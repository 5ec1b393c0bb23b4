"""Shared helpers of the initializers: the `rng=` keyword, the random source and writing
values into an array that may live on a GPU."""
import numpy

from minichainer import backend

_SINGLE = (numpy.dtype(numpy.float16), numpy.dtype(numpy.float32))


def parse_rng(kwargs, owner):
    """Pop `rng` from `kwargs`; reject any other keyword."""
    rng = kwargs.pop('rng', None)
    if kwargs:
        raise TypeError('{}() got unexpected keyword argument(s): {}'.format(
            owner, ', '.join(sorted(kwargs))))
    return rng


def random_source(rng, array):
    """The generator to draw from: `rng` if given, else the array module's global one
    (`numpy.random` for NumPy arrays, `cupy.random` for CuPy arrays)."""
    if rng is not None:
        return rng
    xp = backend.get_array_module(array)
    return xp.random if xp is not numpy else numpy.random


def assign(array, values):
    """`array[...] = values`, copying `values` to the array's device first when they live
    elsewhere.

    CuPy refuses implicit host/device conversions, so values drawn or computed on the host
    (an `rng=` that is a `numpy.random.RandomState`, Orthogonal's QR, a NumPy
    `Constant`) are sent to a GPU array's device explicitly, once, and a CuPy value
    written into a NumPy array is copied to the host, as Chainer's `backend.copyto` does.
    """
    if isinstance(array, numpy.ndarray):
        if not isinstance(values, numpy.ndarray) and hasattr(values, 'get') \
                and hasattr(values, 'shape'):
            values = backend.CpuDevice().send(values)
    elif isinstance(values, numpy.ndarray):
        values = backend.get_device_from_array(array).send(values)
    array[...] = values


def draw(rng, array, initializer_dtype, method, **kwargs):
    """Fill `array` with `rng.<method>(**kwargs)`, or, without `rng`, with the array's
    own device's generator (`numpy.random` on the CPU, `cupy.random` on a GPU, as
    Chainer 7 does: a seeded `cupy.random` gives the same weights again).

    As in Chainer, a GPU draw asks CuPy for float32 values when the initializer's dtype
    is float16 or float32 (cuRAND has no float16); elsewhere values are drawn in float64
    and cast on assignment.
    """
    if rng is None:
        if isinstance(array, numpy.ndarray):
            array[...] = getattr(numpy.random, method)(**kwargs)
            return
        xp = backend.get_array_module(array)
        if initializer_dtype is not None and method == 'normal' \
                and numpy.dtype(initializer_dtype) in _SINGLE:
            kwargs['dtype'] = numpy.float32
        array[...] = getattr(xp.random, method)(**kwargs)
    else:
        assign(array, getattr(rng, method)(**kwargs))
