"""Mixed-precision helpers for function implementations."""
import functools

import numpy


_FLOAT16 = numpy.dtype(numpy.float16)
_FLOAT32 = numpy.dtype(numpy.float32)


def intermediate_dtype(dtype):
    """The dtype a sum or product over `dtype` data is computed in: float32 for
    float16 (whose range ends at 65,504 and which LAPACK lacks), else `dtype` itself."""
    dtype = numpy.dtype(dtype)
    return _FLOAT32 if dtype == _FLOAT16 else dtype


def _fp16_mixed_precision_helper(fn):
    """Decorate `forward(self, inputs)` to compute in float32 for float16 data.

    float16 inputs are upcast to float32 before `fn`. If no input is a float32
    or float64 array (every floating input is float16), float32 outputs are cast
    back to float16; otherwise outputs are returned as computed.
    """
    @functools.wraps(fn)
    def wrapper(self, in_data):
        all_half = True
        upcast = []
        for x in in_data:
            if x.dtype == numpy.float16:
                x = x.astype(numpy.float32)
            elif x.dtype.kind == 'f':
                all_half = False
            upcast.append(x)
        out_data = fn(self, tuple(upcast))
        if not all_half:
            return out_data
        return tuple(
            y.astype(numpy.float16) if y is not None and y.dtype == numpy.float32 else y
            for y in out_data)
    return wrapper
