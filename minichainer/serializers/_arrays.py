"""Checks and device copies shared by the (de)serializers of this package."""
import numpy

from minichainer.backends import _cpu


def array_for(owner, where, data, value):
    """`data` (a stored entry) as an ndarray to copy into the ndarray `value`.

    Raises:
        ValueError: the shapes differ; the message names `owner` (`'load_npz'`) and
            `where` (the entry, as the caller words it).
    """
    data = numpy.asarray(data)
    if data.shape != value.shape:
        raise ValueError(
            '{}: shape mismatch for {}: the file has shape {} but the destination array '
            'has shape {}'.format(owner, where, data.shape, value.shape))
    return data


def to_host(value):
    """`value` with a device (CuPy) array brought to the host: one device-to-host copy
    (a new array, which the caller may keep); anything else unchanged."""
    if isinstance(value, (numpy.ndarray, numpy.generic)) or not hasattr(value, 'dtype'):
        return value
    return _cpu.array_to_cpu(value)


def load_into_device_array(value, data):
    """Copy the host array `data` (shape already checked) into the device array `value`:
    one host-to-device copy, cast to `value`'s dtype first."""
    data = numpy.ascontiguousarray(data, dtype=value.dtype)
    set_ = getattr(value, 'set', None)
    flags = getattr(value, 'flags', None)
    if set_ is not None and flags is not None and flags['C_CONTIGUOUS']:
        set_(data)
    else:
        value[...] = data
