"""Array backends and devices (`chainer.backend`).

The CPU (NumPy, `'@numpy'`) and, where CuPy can really be used, CUDA GPUs (`'@cupy:N'`,
integer ids >= 0; see `minichainer.backends.cuda`). Array code takes its array module from
its inputs (`get_array_module`). iDeep and ChainerX device specifiers, and GPU specifiers
where CuPy cannot be used, raise a clear `RuntimeError` naming the unavailable backend.
"""
import sys
import threading

import numpy

from minichainer._backend import Device  # noqa: F401
from minichainer._backend import _convert_arrays  # noqa: F401  (Chainer's private name)
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
from minichainer.backends import _chainerx_stub

# ``chainer.backend.chainerx`` is the chainerx package (here the unavailable stub, the same
# object ``import chainerx`` gives under the compat runner): code compares ``xp`` with it.
chainerx = _chainerx_stub.get_module()

_thread_local = threading.local()
_CPU = CpuDevice()
_integer_types = (int, numpy.integer)


_cuda_state = cuda.cupy_state
_sys_modules = sys.modules
_ndarray = numpy.ndarray
_variable_class = [None]  # Variable, once minichainer.variable is imported (see below)


def register_variable_type(cls):
    """Tell the backend which class is a Variable (`minichainer.variable` calls this at its
    import), so that `get_array_module` looks into Variables without importing the core: until
    then no Variable exists."""
    _variable_class[0] = cls


def get_array_module(*args):
    """Return `cupy` when one of the arrays (or Variables' arrays) is a CuPy array, else
    `numpy`.

    NumPy inputs take a fast path: CuPy is only consulted when it is in use (imported and
    resolved as available).
    """
    if 'cupy' not in _sys_modules:  # no CuPy array can exist: the NumPy fast path
        return numpy
    cupy_ndarray = _cuda_state.ndarray
    if cupy_ndarray is None:
        if _cuda_state.resolved:
            return numpy
        cupy_ndarray = cuda.maybe_resolve()
        if cupy_ndarray is None:
            return numpy
    variable = _variable_class[0]
    for arg in args:
        if isinstance(arg, cupy_ndarray):
            return _cuda_state.cupy
        if variable is not None and isinstance(arg, variable) and isinstance(
                arg.array, cupy_ndarray):
            return _cuda_state.cupy
    return numpy


def is_arrays_compatible(arrays):
    """True when all non-None arrays belong to one array type family (NumPy or CuPy)."""
    arrays = [a for a in arrays if a is not None]
    if not arrays:
        return True
    if type(arrays[0]) is not _ndarray and not isinstance(arrays[0], _ndarray):
        cupy_ndarray = _cuda_state.ndarray or cuda.maybe_resolve()
        if cupy_ndarray is not None and isinstance(arrays[0], cupy_ndarray):
            return all(isinstance(a, cupy_ndarray) for a in arrays)
    return all(isinstance(a, _ndarray) for a in arrays)


def get_array_types():
    """Tuple of the array types minichainer handles (`numpy.ndarray`, and `cupy.ndarray`
    while CuPy is in use)."""
    cupy_ndarray = _cuda_state.ndarray
    if cupy_ndarray is None:
        return (numpy.ndarray,)
    return (numpy.ndarray, cupy_ndarray)


def get_cpu_array_types():
    """Tuple of the CPU array types (`(numpy.ndarray,)`)."""
    return (numpy.ndarray,)


def _no_backend(spec, backend_name):
    return RuntimeError(
        'get_device: device {!r} is not available: minichainer has no {} backend and runs '
        "on the CPU only; use '@numpy' or -1".format(spec, backend_name))


def _no_cupy(spec):
    return RuntimeError(
        'get_device: GPU device {!r} requested but no GPU backend is available (CUDA/CuPy: '
        "{}); use -1 or '@numpy'".format(spec, cuda.why_unavailable()))


def _get_device_cupy_or_numpy(device_spec):
    # legacy integer spec: negative is the CPU, >= 0 a CUDA GPU
    if device_spec >= 0:
        return _gpu_device(int(device_spec), device_spec)
    return _CPU


def _gpu_device(device_id, spec):
    if not cuda.cupy_state.resolved:
        cuda.resolve_cupy()
    if cuda.cupy_state.ndarray is None:
        raise _no_cupy(spec)
    return cuda.GpuDevice(cuda.cupy_state.cupy.cuda.Device(
        cuda.check_device_id(device_id, 'get_device({!r})'.format(spec))))


def get_device(device_spec):
    """Return the `Device` named by `device_spec`.

    Accepted: a `Device`; `'@numpy'`; the `numpy` module; a negative int or its
    string (`-1`, `'-1'`), as Chainer programs' `--device -1`/`--gpu -1` give; where
    CuPy is available, `'@cupy:N'`, an int `N >= 0` or its string, a `cupy.cuda.Device`.

    Raises:
        RuntimeError: the spec names a GPU (an int >= 0, `'@cupy:N'`, a CUDA device)
            where CuPy cannot be used, or a GPU id the machine does not have (the message
            names the id and the number of GPUs); or an iDeep (`'@intel64'`) or ChainerX
            (`'native:0'`, `'cuda:0'`, a `chainerx.Device`) device, which do not exist
            here.
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
                try:
                    device_id = int(precise)
                except ValueError:
                    raise ValueError(
                        'get_device: {!r}: the CUDA device id after \'@cupy:\' must be an '
                        'integer'.format(device_spec)) from None
                if device_id < 0:
                    raise ValueError('get_device: {!r}: invalid CUDA device id {}'.format(
                        device_spec, device_id))
                return _gpu_device(device_id, device_spec)
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
            raise _no_cupy(device_spec)
        if isinstance(device_spec[0], str):
            raise RuntimeError(
                'get_device: ChainerX device {!r} is not available: minichainer has no '
                "ChainerX backend; use '@numpy' or -1".format(device_spec))
    if isinstance(device_spec, cuda.Device):
        if cuda.available:
            return _gpu_device(device_spec.id, device_spec)
        raise _no_cupy(device_spec)
    raise TypeError(
        'get_device: device_spec must be a backend.Device, an int, the numpy module or a '
        'str such as \'@numpy\', got {!r} of type {}'.format(
            device_spec, type(device_spec).__name__))


def get_device_from_array(*arrays):
    """Return the device of the first CuPy array among `arrays` (a `GpuDevice`), else the
    CPU. Variables are not looked into, as in Chainer."""
    for array in arrays:
        if array is None or type(array) is _ndarray or isinstance(
                array, (list, tuple, _ndarray, numpy.generic)):
            continue
        cupy_ndarray = _cuda_state.ndarray or cuda.maybe_resolve()
        if cupy_ndarray is not None and isinstance(array, cupy_ndarray):
            return cuda.GpuDevice(array.device)
        if hasattr(array, 'device') and hasattr(array, 'get') and hasattr(array, 'shape'):
            raise RuntimeError(
                'get_device_from_array: {} is not a NumPy array and CuPy is not available '
                '({})'.format(type(array).__name__, cuda.why_unavailable()))
    return _CPU


def _guess_device_from_array_module(xp):
    """Return a plausible device for array module `xp` (CuPy: the current GPU)."""
    if xp is numpy:
        return _CPU
    if _cuda_state.cupy is not None and xp is _cuda_state.cupy:
        return cuda.GpuDevice(xp.cuda.Device())
    raise RuntimeError('_guess_device_from_array_module: array module {!r} is not '
                       'supported by minichainer'.format(getattr(xp, '__name__', xp)))


def get_current_device():
    """Return the device made current by `using_device` (the CPU by default).

    minichainer addition; Chainer has no public equivalent.
    """
    device = getattr(_thread_local, 'device', None)
    return _CPU if device is None else device


class _UsingDevice:
    __slots__ = ('_device', '_previous', '_contexts')

    def __init__(self, device):
        self._device = device
        self._contexts = []

    def __enter__(self):
        self._previous = getattr(_thread_local, 'device', None)
        _thread_local.device = self._device
        context = self._device.create_context()  # the CPU's: a shared no-op context
        context.__enter__()
        self._contexts.append(context)
        return self._device

    def __exit__(self, typ, value, traceback):
        self._contexts.pop().__exit__(typ, value, traceback)
        _thread_local.device = self._previous


def using_device(device_spec):
    """Context manager making a device current in this thread (`chainer.using_device`).

    Raises the same errors as [`get_device`][minichainer.backend.get_device].
    `with using_device(d) as dev` binds the `Device` (Chainer's binds None for the CPU).
    """
    return _UsingDevice(get_device(device_spec))


def copyto(dst, src):
    """Copy the elements of `src` into `dst` (broadcasting), across devices: `dst` a NumPy
    or CuPy array, `src` an array (of either) or a scalar."""
    if isinstance(src, (list, tuple, dict)) or src is None:
        raise TypeError('copyto: src must be an array or a scalar, got {}'.format(
            type(src).__name__))
    if isinstance(dst, numpy.ndarray):
        numpy.copyto(dst, _cpu.array_to_cpu(src))
        return
    cupy_ndarray = _cuda_state.ndarray or cuda.maybe_resolve()
    if cupy_ndarray is None or not isinstance(dst, cupy_ndarray):
        raise TypeError('copyto: dst must be a numpy.ndarray or cupy.ndarray, cannot copy to '
                        'an object of type {}'.format(type(dst).__name__))
    cupy = _cuda_state.cupy
    if isinstance(src, cupy_ndarray):
        if src.device != dst.device:
            src = cuda.to_gpu(src, device=dst.device)
        with dst.device:
            cupy.copyto(dst, src)
        return
    src = numpy.asarray(src)
    with dst.device:
        if src.dtype == dst.dtype and src.shape == dst.shape and (
                dst.flags.c_contiguous or dst.flags.f_contiguous):
            dst.set(numpy.asarray(src, order='C' if dst.flags.c_contiguous else 'F'))
        else:
            cupy.copyto(dst, cupy.asarray(src))


def _contains_nan(x):
    """True if the array has a NaN element (one host copy of a bool for a CuPy array)."""
    if x.dtype.kind in ('f', 'c'):
        if isinstance(x, numpy.ndarray):
            return bool(numpy.isnan(x).any())
        xp = get_array_module(x)
        with x.device:
            return bool(xp.isnan(x).any())
    return False


def to_numpy(array):
    """Return `array` (or each array of a list/tuple) as NumPy arrays."""
    return _cpu.to_cpu(array)


__all__ = ['Device', 'CpuDevice', 'GpuDevice', 'Intel64Device', 'ChainerxDevice',
           'get_array_module', 'get_device', 'get_device_from_array', 'using_device',
           'copyto', 'is_arrays_compatible', 'get_array_types', 'from_chx', 'to_chx']
