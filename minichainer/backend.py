"""Array backends and devices (``chainer.backend``).

Only the CPU/NumPy backend exists; everything takes its array module from its inputs
(``get_array_module``) so that a CuPy backend can plug in later.
"""
import contextlib
import threading

import numpy

from minichainer._backend import Device  # noqa: F401
from minichainer.backends._cpu import CpuDevice

_thread_local = threading.local()


def get_array_module(*args):
    """Return the array module (``numpy``) for the given arrays or Variables."""
    return numpy


def _convert_arrays(array, func):
    """Apply ``func`` to an array or to each array of a (nested) list, tuple or dict."""
    if isinstance(array, (list, tuple)):
        converted = [_convert_arrays(a, func) for a in array]
        return converted if isinstance(array, list) else tuple(converted)
    if isinstance(array, dict):
        return {k: _convert_arrays(v, func) for k, v in array.items()}
    if array is None:
        return None
    return func(array)


def is_arrays_compatible(arrays):
    """True when all non-None arrays belong to one array type family (always NumPy here)."""
    arrays = [a for a in arrays if a is not None]
    return all(isinstance(a, numpy.ndarray) for a in arrays)


def get_device(device_spec):
    """Return the :class:`Device` named by ``device_spec``.

    Accepted: a Device, ``'@numpy'``, ``numpy``, ``-1``, ``'-1'`` and ``None`` (the CPU).
    GPU specs (``'@cupy:0'``, integers >= 0, ``'@intel64'``, ChainerX names) raise
    ``RuntimeError`` because no such backend exists here.
    """
    if isinstance(device_spec, Device):
        return device_spec
    if device_spec is numpy or device_spec is None:
        return CpuDevice()
    if isinstance(device_spec, str):
        spec = device_spec.strip()
        if spec in ('@numpy', '-1', 'native', 'native:0', '@native'):
            return CpuDevice()
        try:
            as_int = int(spec)
        except ValueError:
            as_int = None
        if as_int is not None:
            return get_device(as_int)
        raise RuntimeError(
            'get_device: device {!r} is not available: minichainer runs on the CPU only '
            "(use '@numpy' or -1)".format(device_spec))
    if isinstance(device_spec, (int, numpy.integer)) and not isinstance(device_spec, bool):
        if device_spec < 0:
            return CpuDevice()
        raise RuntimeError(
            'get_device: GPU device {} requested but no GPU backend is available in '
            "minichainer (CuPy is not supported); use -1 or '@numpy'".format(int(device_spec)))
    if isinstance(device_spec, tuple) and len(device_spec) == 2:
        raise RuntimeError(
            'get_device: device {!r} is not available: minichainer runs on the CPU only'
            .format(device_spec))
    raise TypeError(
        'get_device: device_spec must be a Device, a str such as \'@numpy\', an int or '
        'numpy, got {!r}'.format(device_spec))


def get_device_from_array(array):
    """Return the device an array lives on (the CPU for NumPy arrays)."""
    return CpuDevice()


@contextlib.contextmanager
def using_device(device_spec):
    """Make a device current inside a ``with`` block (a no-op for the CPU)."""
    device = get_device(device_spec)
    previous = getattr(_thread_local, 'device', None)
    _thread_local.device = device
    try:
        yield device
    finally:
        _thread_local.device = previous


def copyto(dst, src):
    """Copy the elements of ``src`` into ``dst`` (NumPy arrays)."""
    if not isinstance(dst, numpy.ndarray):
        raise TypeError('copyto: dst must be a numpy.ndarray, got {}'.format(type(dst)))
    numpy.copyto(dst, numpy.asarray(src))


def _get_device_cupy_or_numpy(device_spec):
    return get_device(device_spec)
