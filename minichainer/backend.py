"""Array backends and devices (`chainer.backend`).

Only the CPU/NumPy backend exists. Array code takes its array module from its inputs
(`get_array_module`) so that another backend can plug in later. GPU (CuPy), iDeep and
ChainerX device specifiers raise a clear `RuntimeError` naming the unavailable backend.
"""
import threading

import numpy

from minichainer._backend import Device  # noqa: F401
from minichainer._backend import _convert_arrays  # noqa: F401
from minichainer.backends import _chainerx  # noqa: F401
from minichainer.backends import _cpu
from minichainer.backends import cuda
from minichainer.backends import intel64  # noqa: F401
from minichainer.backends._chainerx import ChainerxDevice  # noqa: F401
from minichainer.backends._chainerx import from_chx  # noqa: F401
from minichainer.backends._chainerx import to_chx  # noqa: F401
from minichainer.backends._cpu import CpuDevice
from minichainer.backends.cuda import GpuDevice  # noqa: F401
from minichainer.backends.intel64 import Intel64Device  # noqa: F401
from minichainer._compat import chainerx_stub as _chainerx_stub

# ``chainer.backend.chainerx`` is the chainerx package (here the unavailable stub, the same
# object ``import chainerx`` gives under the compat runner): code compares ``xp`` with it.
chainerx = _chainerx_stub.get_module()

_thread_local = threading.local()
_CPU = CpuDevice()
_integer_types = (int, numpy.integer)


def get_array_module(*args):
    """Return the array module for the given arrays or Variables (always `numpy`)."""
    return numpy


def is_arrays_compatible(arrays):
    """True when all non-None arrays belong to one array type family (NumPy here)."""
    return all(isinstance(a, numpy.ndarray) for a in arrays if a is not None)


def get_array_types():
    """Tuple of the array types minichainer handles (`(numpy.ndarray,)`)."""
    return (numpy.ndarray,)


def get_cpu_array_types():
    """Tuple of the CPU array types (`(numpy.ndarray,)`)."""
    return (numpy.ndarray,)


def _no_backend(spec, backend_name):
    return RuntimeError(
        'get_device: device {!r} is not available: minichainer has no {} backend and runs '
        "on the CPU only; use '@numpy' or -1".format(spec, backend_name))


def _get_device_cupy_or_numpy(device_spec):
    # legacy integer spec: negative is the CPU, >= 0 a CUDA GPU
    if device_spec >= 0:
        raise RuntimeError(
            'get_device: GPU device {} requested but no GPU backend is available in '
            "minichainer (CuPy is not supported); use -1 or '@numpy'".format(int(device_spec)))
    return _CPU


def get_device(device_spec):
    """Return the `Device` named by `device_spec`.

    Accepted: a `Device`; `'@numpy'`; the `numpy` module; a negative int or its
    string (`-1`, `'-1'`), as Chainer programs' `--device -1`/`--gpu -1` give.

    Raises:
        RuntimeError: the spec names a GPU (an int >= 0, `'@cupy:N'`, a CUDA device),
            iDeep (`'@intel64'`) or ChainerX (`'native:0'`, `'cuda:0'`, a
            `chainerx.Device`) device; none of these backends exists here.
        ValueError: a malformed `'@...'` string.
        TypeError: any other type (including None, as in Chainer).
    """
    if isinstance(device_spec, Device):
        return device_spec
    if isinstance(device_spec, _integer_types) and not isinstance(device_spec, bool):
        return _get_device_cupy_or_numpy(device_spec)
    if device_spec is numpy:
        return _CPU
    if isinstance(device_spec, str):
        try:
            as_int = int(device_spec)
        except ValueError:
            pass
        else:
            return _get_device_cupy_or_numpy(as_int)
        if device_spec.startswith('@'):
            module, colon, precise = device_spec[1:].partition(':')
            if module == 'numpy' and not colon:
                return _CPU
            if module == 'cupy' and colon:
                raise _no_backend(device_spec, 'CUDA/CuPy')
            if module == 'intel64' and not colon:
                raise _no_backend(device_spec, 'iDeep (intel64)')
            raise ValueError(
                'get_device: device specifiers starting with \'@\' must be \'@numpy\', '
                '\'@cupy:<id>\' or \'@intel64\', got {!r}'.format(device_spec))
        raise RuntimeError(
            'get_device: tried to parse ChainerX device specifier {!r}, but ChainerX is not '
            'available in minichainer (device specifiers without an \'@\' prefix name '
            "ChainerX devices); use '@numpy' or -1".format(device_spec))
    if isinstance(device_spec, cuda.DummyDeviceType):  # as in Chainer, not a device spec
        raise TypeError(
            'get_device: device_spec cuda.DummyDevice is not a device specifier; use '
            '\'@numpy\' or -1 for the CPU')
    if isinstance(device_spec, tuple) and len(device_spec) == 2:
        # legacy (module, id) / (backend name, index) forms of GPU and ChainerX devices
        if device_spec[0] is cuda.cupy:
            raise _no_backend(device_spec, 'CUDA/CuPy')
        if isinstance(device_spec[0], str):
            raise RuntimeError(
                'get_device: ChainerX device {!r} is not available: minichainer has no '
                "ChainerX backend; use '@numpy' or -1".format(device_spec))
    if isinstance(device_spec, cuda.Device):
        raise _no_backend(device_spec, 'CUDA/CuPy')
    raise TypeError(
        'get_device: device_spec must be a backend.Device, an int, the numpy module or a '
        'str such as \'@numpy\', got {!r} of type {}'.format(
            device_spec, type(device_spec).__name__))


def get_device_from_array(*arrays):
    """Return the device the arrays live on (the first non-NumPy one; here always the CPU)."""
    for array in arrays:
        if isinstance(array, (list, tuple)):
            continue
        if not isinstance(array, (numpy.ndarray, numpy.generic)) and array is not None \
                and hasattr(array, 'device') and hasattr(array, 'get'):
            raise RuntimeError(
                'get_device_from_array: {} is not a NumPy array; minichainer has no GPU '
                'backend'.format(type(array).__name__))
    return _CPU


def _guess_device_from_array_module(xp):
    """Return a plausible device for array module `xp` (the CPU)."""
    if xp is numpy:
        return _CPU
    raise RuntimeError('_guess_device_from_array_module: array module {!r} is not '
                       'supported by minichainer'.format(getattr(xp, '__name__', xp)))


def get_current_device():
    """Return the device made current by `using_device` (the CPU by default).

    minichainer addition; Chainer has no public equivalent.
    """
    device = getattr(_thread_local, 'device', None)
    return _CPU if device is None else device


class _UsingDevice:
    __slots__ = ('_device', '_previous')

    def __init__(self, device):
        self._device = device

    def __enter__(self):
        self._previous = getattr(_thread_local, 'device', None)
        _thread_local.device = self._device
        self._device.create_context().__enter__()
        return self._device

    def __exit__(self, typ, value, traceback):
        self._device.create_context().__exit__(typ, value, traceback)
        _thread_local.device = self._previous


def using_device(device_spec):
    """Context manager making a device current in this thread (`chainer.using_device`).

    Raises the same errors as [`get_device`][minichainer.backend.get_device].
    `with using_device(d) as dev` binds the `Device` (Chainer's binds None for the CPU).
    """
    return _UsingDevice(get_device(device_spec))


def copyto(dst, src):
    """Copy the elements of `src` into the NumPy array `dst` (broadcasting)."""
    if not isinstance(dst, numpy.ndarray):
        raise TypeError('copyto: dst must be a numpy.ndarray, cannot copy to an object of '
                        'type {}'.format(type(dst).__name__))
    if isinstance(src, (list, tuple, dict)) or src is None:
        raise TypeError('copyto: src must be an array or a scalar, got {}'.format(
            type(src).__name__))
    numpy.copyto(dst, _cpu._array_to_cpu(src))


def _contains_nan(x):
    """True if the array has a NaN element."""
    if x.dtype.kind in ('f', 'c'):
        return bool(numpy.isnan(x).any())
    return False


def to_numpy(array):
    """Return `array` (or each array of a list/tuple) as NumPy arrays."""
    return _cpu._to_cpu(array)


__all__ = ['Device', 'CpuDevice', 'GpuDevice', 'Intel64Device', 'ChainerxDevice',
           'get_array_module', 'get_device', 'get_device_from_array', 'using_device',
           'copyto', 'is_arrays_compatible', 'get_array_types', 'from_chx', 'to_chx']
