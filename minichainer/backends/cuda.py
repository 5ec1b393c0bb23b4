"""CUDA backend stand-in (`chainer.backends.cuda`): no GPU backend is available.

As in Chainer without CuPy: `available` and `cudnn_enabled` are False, `ndarray`,
`Device`, `Event` and `Stream` are dummy classes for `isinstance` tests, and
`DummyDevice` stands for the CPU. Anything that would touch a GPU (`to_gpu`,
`GpuDevice`, `get_device_from_id(0)`, kernels) raises a `RuntimeError` saying so.
`cupy` is a placeholder object, as in Chainer (so `xp is cuda.cupy` is simply False and
Chainer's own tests' `cuda.cupy is not None` holds); touching any of its attributes raises
an `AttributeError` saying that CuPy is not available.
"""
import warnings

import numpy

from minichainer import _backend
from minichainer.backends import _cpu

available = False
cudnn_enabled = False
cupyx = None
cudnn = None
libcudnn = object()  # for `cuda.libcudnn` to always resolve, as in Chainer
_integer_types = (int, numpy.integer)
_resolution_error = ImportError('CuPy is not supported by minichainer')


class _UnavailableCupy:
    """Stands for the `cupy` module, which minichainer does not support."""

    __slots__ = ()

    def __getattr__(self, name):
        raise AttributeError(
            'cuda.cupy.{}: CuPy is not available in minichainer (no GPU backend); use NumPy '
            "arrays on the '@numpy' device".format(name))

    def __repr__(self):
        return '<cupy (not available in minichainer)>'


cupy = _UnavailableCupy()


class _PerformanceWarning(Warning):
    """Stands for CuPy's `PerformanceWarning` (Chainer defines it likewise without CuPy)."""


class ndarray:
    """Dummy `cupy.ndarray` type: no object is ever an instance (for type tests)."""

    def __init__(self, *args, **kwargs):
        raise _no_gpu('cuda.ndarray')


class Device:
    """Dummy `cupy.cuda.Device` type (for type tests)."""

    def __init__(self, device=None):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *args):
        pass


class Event:
    """Dummy `cupy.cuda.Event` type."""


class Stream:
    """Dummy `cupy.cuda.Stream` type."""


def _no_gpu(what):
    return RuntimeError(
        '{}: no GPU backend is available in minichainer (CuPy is not supported); '
        'use the CPU device -1 or \'@numpy\''.format(what))


def check_cuda_available():
    """Raise `RuntimeError`: CUDA is never available in minichainer."""
    raise RuntimeError(
        'CUDA environment is not available: minichainer runs on the CPU only (CuPy is not '
        "supported); use the device -1 or '@numpy'")


class DummyDeviceType(Device):
    """Stands for "the CPU" where Chainer code expects a CUDA device object."""

    id = -1

    def __init__(self):
        pass

    def __int__(self):
        return -1

    def __index__(self):
        return -1

    def __enter__(self):
        return self

    def __exit__(self, *args):
        pass

    def use(self):
        pass

    def synchronize(self):
        pass

    def __eq__(self, other):
        return isinstance(other, DummyDeviceType)

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return hash(-1)

    def __repr__(self):
        return '<DummyDevice (CPU)>'


DummyDevice = DummyDeviceType()


class GpuDevice(_backend.Device):
    """The CuPy device type; cannot be created here (no GPU backend)."""

    def __init__(self, device):
        raise _no_gpu('GpuDevice({!r})'.format(device))

    @staticmethod
    def from_device_id(device_id):
        raise _no_gpu('GpuDevice.from_device_id({!r})'.format(device_id))

    @staticmethod
    def from_array(array):
        """Return None: no array lives on a GPU here."""
        return None

    def __eq__(self, other):
        return False


def get_device_from_id(device_id):
    """Return `DummyDevice` for None or a negative id; raise for a GPU id."""
    if device_id is not None and device_id >= 0:
        raise _no_gpu('get_device_from_id({!r})'.format(device_id))
    return DummyDevice


def get_device_from_array(*arrays):
    """Return `DummyDevice` (no array lives on a GPU here)."""
    return DummyDevice


def _get_cuda_device(*args):
    for arg in args:
        if type(arg) is not bool and isinstance(arg, _integer_types):
            if arg >= 0:
                raise _no_gpu('get_device({!r})'.format(arg))
            return DummyDevice
    return DummyDevice


def get_device(*args):
    """Deprecated in Chainer: use `get_device_from_id`/`get_device_from_array`."""
    warnings.warn('get_device is deprecated. Please use get_device_from_id or '
                  'get_device_from_array instead.', DeprecationWarning)
    return _get_cuda_device(*args)


def to_cpu(array, stream=None):
    """Return `array` (or a list/tuple of arrays, None kept) as NumPy arrays."""
    return _cpu._to_cpu(array)


def to_gpu(array, device=None, stream=None):
    """Raise `RuntimeError`: there is no GPU to copy to."""
    raise _no_gpu('to_gpu')


def copy(array, out=None, out_device=None, stream=None):
    """Raise `RuntimeError` (copies GPU arrays in Chainer)."""
    raise _no_gpu('cuda.copy')


def get_array_module(*args):
    """Return `numpy` (deprecated in Chainer; use `backend.get_array_module`)."""
    return numpy


def elementwise(*args, **kwargs):
    raise _no_gpu('cuda.elementwise')


def reduce(*args, **kwargs):
    raise _no_gpu('cuda.reduce')


def raw(*args, **kwargs):
    raise _no_gpu('cuda.raw')


def memoize(for_each_device=False):
    """Decorator that returns the function unchanged (nothing to cache per GPU)."""
    def decorator(f):
        return f
    return decorator


def clear_memo():
    pass


def fuse(*args, **kwargs):
    """Return the function unchanged (kernel fusion needs CuPy)."""
    if len(args) == 1 and callable(args[0]) and not kwargs:
        return args[0]
    return lambda f: f


def get_cudnn_dropout_states():
    raise _no_gpu('get_cudnn_dropout_states')


def set_max_workspace_size(size):
    pass


def get_max_workspace_size():
    return 0


def using_device(*args):
    """Context manager for a CUDA device: `DummyDevice` for CPU arguments."""
    return _get_cuda_device(*args)


def should_use_cudnn(level, lowest_version=0):
    """False: cuDNN is never used."""
    return False


def should_use_cudnn_tensor_core(dtype):
    """False: cuDNN is never used."""
    return False
