"""CUDA backend stand-in (``chainer.backends.cuda``): no GPU backend is available.

``available`` is False and ``cupy`` is None; functions that would move data to a GPU raise a
clear error, and the helpers that work on CPU arrays do so.
"""
import contextlib

import numpy

available = False
cudnn_enabled = False
cupy = None
cudnn = None
ndarray = type(None)  # no array is ever a cupy.ndarray


class _NoGpuError(RuntimeError):
    pass


def _no_gpu(what):
    return RuntimeError(
        '{}: no GPU backend is available in minichainer (CuPy is not supported); '
        'use the CPU device -1 or \'@numpy\''.format(what))


def check_cuda_available():
    raise _no_gpu('check_cuda_available')


class DummyDeviceType:
    """Stands for "the CPU" where Chainer code expects a CUDA device object."""

    id = -1

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

    def __hash__(self):
        return hash(-1)


DummyDevice = DummyDeviceType()


def get_device_from_id(device_id):
    if device_id is None or (isinstance(device_id, int) and device_id < 0):
        return DummyDevice
    raise _no_gpu('get_device_from_id({!r})'.format(device_id))


def get_device_from_array(*arrays):
    return DummyDevice


def get_device(*args):
    for arg in args:
        if isinstance(arg, int) and not isinstance(arg, bool) and arg >= 0:
            raise _no_gpu('get_device({!r})'.format(arg))
    return DummyDevice


def to_cpu(array, stream=None):
    """Return ``array`` (or nested lists/tuples of arrays) as NumPy arrays."""
    from minichainer.backend import _convert_arrays
    from minichainer.backends._cpu import _to_cpu
    return _convert_arrays(array, _to_cpu)


def to_gpu(array, device=None, stream=None):
    raise _no_gpu('to_gpu')


def copy(array, out=None, out_device=None, stream=None):
    raise _no_gpu('cuda.copy')


def get_array_module(*args):
    return numpy


def elementwise(*args, **kwargs):
    raise _no_gpu('cuda.elementwise')


def reduce(*args, **kwargs):
    raise _no_gpu('cuda.reduce')


def raw(*args, **kwargs):
    raise _no_gpu('cuda.raw')


def memoize(for_each_device=False):
    def decorator(f):
        return f
    return decorator


def fuse(*args, **kwargs):
    if len(args) == 1 and callable(args[0]) and not kwargs:
        return args[0]
    return lambda f: f


def get_cudnn_dropout_states():
    raise _no_gpu('get_cudnn_dropout_states')


def set_max_workspace_size(size):
    pass


def get_max_workspace_size():
    return 0


@contextlib.contextmanager
def using_device(*args):
    yield


def should_use_cudnn(level, lowest_version=0):
    return False


def should_use_cudnn_tensor_core(dtype):
    return False
