"""The CUDA backend (`chainer.backends.cuda`), on CuPy when CuPy can really be used.

CuPy is imported lazily: not at `import minichainer`, not on the CPU path. It is resolved
the first time one of `available`, `cupy`, `cupyx`, `ndarray`, `Device`, `Event`,
`Stream` is read, a GPU device is asked for (`get_device('@cupy:0')`, `--gpu 0`, `to_gpu`),
or an array that is not a NumPy array reaches `backend.get_array_module` while `cupy` is
in `sys.modules`. [`resolve_cupy`][minichainer.backends.cuda.resolve_cupy] resolves it
again (the seam through which tests install a CuPy double).

CuPy counts as available when `import cupy` works AND a GPU answers
(`cupy.cuda.runtime.getDeviceCount() > 0`). Otherwise, as in Chainer without CuPy:
`available` is False, `ndarray`, `Device`, `Event` and `Stream` are dummy classes for
`isinstance` tests, `DummyDevice` stands for the CPU, `cupy` is a placeholder whose
attributes raise, and anything that needs a GPU raises a `RuntimeError` saying why.

`cudnn_enabled` is always False: CuPy 14 has no cuDNN; `config.use_cudnn`,
`cudnn_deterministic` and `autotune` are accepted and have no effect.
"""
import functools
import importlib
import sys
import threading
import warnings

import numpy

from minichainer import _backend
from minichainer.backends import _cpu

cudnn_enabled = False
cudnn = None
libcudnn = object()  # for `cuda.libcudnn` to always resolve, as in Chainer
_integer_types = (int, numpy.integer)
_lock = threading.RLock()


class _UnavailableCupy:
    """Stands for the `cupy` module when CuPy cannot be used."""

    __slots__ = ()

    def __getattr__(self, name):
        raise AttributeError(
            'cuda.cupy.{}: CuPy is not available ({}); use NumPy arrays on the \'@numpy\' '
            'device'.format(name, why_unavailable()))

    def __repr__(self):
        return '<cupy (not available: {})>'.format(why_unavailable())


_UNAVAILABLE_CUPY = _UnavailableCupy()


class _State:
    """What `resolve_cupy` found. `ndarray` is `cupy.ndarray` while CuPy is in use, else
    None (the fast test of `backend.get_array_module`)."""

    __slots__ = ('resolved', 'resolving', 'cupy', 'ndarray', 'device_count', 'error')

    def __init__(self):
        self.resolved = False
        self.resolving = False
        self.cupy = None
        self.ndarray = None
        self.device_count = 0
        self.error = None


_state = _State()
# The name the backend, Variable, FunctionNode.apply and the backward engine read it by
# (their fast test for CuPy arrays: `cupy_state.ndarray`); cuda.py itself uses _state.
cupy_state = _state


class _PerformanceWarning(Warning):
    """Stands for CuPy's `PerformanceWarning` (Chainer defines it likewise without CuPy)."""


class _DummyNdarray:
    """Dummy `cupy.ndarray` type: no object is ever an instance (for type tests)."""

    def __init__(self, *args, **kwargs):
        raise _no_gpu('cuda.ndarray')


_DummyNdarray.__name__ = 'ndarray'
_DummyNdarray.__qualname__ = 'ndarray'


class _DummyCudaDevice:
    """Dummy `cupy.cuda.Device` type (for type tests)."""

    def __init__(self, device=None):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *args):
        pass


_DummyCudaDevice.__name__ = 'Device'
_DummyCudaDevice.__qualname__ = 'Device'


class _DummyEvent:
    """Dummy `cupy.cuda.Event` type."""


class _DummyStream:
    """Dummy `cupy.cuda.Stream` type."""


_DummyEvent.__name__ = 'Event'
_DummyStream.__name__ = 'Stream'

_LAZY = frozenset(('available', 'cupy', 'cupyx', 'ndarray', 'Device', 'Event', 'Stream',
                   '_PerformanceWarning', '_resolution_error', '_cupy_major', 'cuda'))


def __getattr__(name):
    # PEP 562: the names that depend on CuPy are set by resolve_cupy() on first use
    if name in _LAZY:
        with _lock:
            if not _state.resolved:
                resolve_cupy()
        try:
            return globals()[name]
        except KeyError:  # `cuda` (the cupy.cuda module) exists only with CuPy, as in Chainer
            pass
    raise AttributeError('module {!r} has no attribute {!r}'.format(__name__, name))


def _set_unavailable(error):
    g = globals()
    g.update(available=False, cupy=_UNAVAILABLE_CUPY, cupyx=None, ndarray=_DummyNdarray,
             Device=_DummyCudaDevice, Event=_DummyEvent, Stream=_DummyStream,
             _PerformanceWarning=_PerformanceWarning, _resolution_error=error,
             _cupy_major=0)
    g.pop('cuda', None)
    _state.cupy = None
    _state.ndarray = None
    _state.device_count = 0
    _state.error = error


def resolve_cupy():
    """(Re)resolve CuPy; return whether it is available.

    Imports `cupy` (whatever `sys.modules['cupy']` holds, else the installed package) and
    `cupyx`, asks `cupy.cuda.runtime.getDeviceCount()`, and sets `available`, `cupy`,
    `cupyx`, `ndarray`, `Device`, `Event`, `Stream` of this module accordingly. Called
    lazily on first use; call it again after putting a CuPy stand-in into (or taking it
    out of) `sys.modules['cupy']`/`['cupyx']`, as the test suite's `cupy_device` fixture
    does. Memoized kernels (`memoize`) are cleared.
    """
    with _lock:
        _state.resolving = True
        try:
            try:
                cupy_module = importlib.import_module('cupy')
                cupyx_module = importlib.import_module('cupyx')
                count = cupy_module.cuda.runtime.getDeviceCount()
                if count <= 0:
                    raise RuntimeError('no GPU answered (cupy.cuda.runtime.getDeviceCount() '
                                       'is {})'.format(count))
            except Exception as e:  # ImportError, CUDARuntimeError (no driver/GPU), ...
                _set_unavailable(e)
            else:
                try:
                    importlib.import_module('cupyx.scipy.special')
                except Exception:
                    pass
                perf_warning = getattr(getattr(cupy_module, '_util', None),
                                       'PerformanceWarning', _PerformanceWarning)
                try:
                    major = int(str(cupy_module.__version__).split('.')[0])
                except ValueError:
                    major = 0
                globals().update(
                    available=True, cupy=cupy_module, cupyx=cupyx_module,
                    cuda=cupy_module.cuda,
                    ndarray=cupy_module.ndarray, Device=cupy_module.cuda.Device,
                    Event=cupy_module.cuda.Event, Stream=cupy_module.cuda.Stream,
                    _PerformanceWarning=perf_warning, _resolution_error=None,
                    _cupy_major=major)
                _state.cupy = cupy_module
                _state.ndarray = cupy_module.ndarray
                _state.device_count = int(count)
                _state.error = None
        finally:
            _state.resolving = False
            _state.resolved = True
        clear_memo()
        return _state.ndarray is not None


def _maybe_resolve():
    """Resolve CuPy once if it was imported by someone (called on non-NumPy arrays)."""
    if not _state.resolved and 'cupy' in sys.modules:
        resolve_cupy()
    return _state.ndarray


maybe_resolve = _maybe_resolve  # the name other modules call it by


def why_unavailable():
    e = _state.error
    if not _state.resolved:
        return 'CuPy has not been resolved yet'
    if e is None:
        return 'CuPy is available'
    if isinstance(e, ImportError):
        return 'CuPy is not installed: {}'.format(e)
    return 'CuPy is installed but cannot be used: {}: {}'.format(type(e).__name__, e)


def _no_gpu(what):
    if not _state.resolved:
        resolve_cupy()
    return RuntimeError(
        '{}: no GPU backend is available ({}); use the CPU device -1 or \'@numpy\''.format(
            what, why_unavailable()))


def check_cuda_available():
    """Raise `RuntimeError` unless CuPy is available (imported, and a GPU answers)."""
    if not _state.resolved:
        resolve_cupy()
    if _state.ndarray is None:
        raise RuntimeError(
            'CUDA environment is not available: no GPU backend ({}); use the device -1 or '
            '\'@numpy\''.format(why_unavailable()))


def device_count():
    check_cuda_available()
    try:
        _state.device_count = int(_state.cupy.cuda.runtime.getDeviceCount())
    except Exception:
        pass
    return _state.device_count


def check_device_id(device_id, what):
    """Validate a CUDA device id (an int >= 0 below the number of GPUs)."""
    if type(device_id) is bool or not isinstance(device_id, _integer_types) or \
            device_id < 0:
        raise ValueError('Invalid CUDA device ID: {!r}'.format(device_id))
    count = device_count()
    if device_id >= count:
        raise RuntimeError(
            '{}: CUDA device {} does not exist: this machine has {} GPU{} (ids 0 to {})'
            .format(what, int(device_id), count, '' if count == 1 else 's', count - 1))
    return int(device_id)


class DummyDeviceType:
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
    """A CUDA GPU (`chainer.backend.GpuDevice`): arrays are `cupy.ndarray` on it.

    `GpuDevice(cupy.cuda.Device(i))`, `GpuDevice.from_device_id(i)` or
    `get_device('@cupy:i')`. Its name is `'@cupy:i'`; `use()` makes it current for CuPy;
    `with device:` makes it current for CuPy and minichainer (as `using_device`; Chainer's
    devices refuse `with`, minichainer's GPU device accepts it).
    """

    __hash__ = _backend.Device.__hash__

    def __init__(self, device):
        check_cuda_available()
        if not isinstance(device, _state.cupy.cuda.Device):
            raise TypeError('GpuDevice: device must be a cupy.cuda.Device, got {!r}'.format(
                device))
        super().__init__()
        self.device = device
        self._contexts = []

    @staticmethod
    def from_device_id(device_id):
        """The `GpuDevice` of CUDA device `device_id` (checked against the GPU count)."""
        check_cuda_available()
        device_id = check_device_id(device_id, 'GpuDevice.from_device_id')
        return GpuDevice(_state.cupy.cuda.Device(device_id))

    @staticmethod
    def from_array(array):
        """The `GpuDevice` of a CuPy array, else None."""
        nd = _state.ndarray or _maybe_resolve()
        if nd is not None and isinstance(array, nd) and array.device is not None:
            return GpuDevice(array.device)
        return None

    @property
    def xp(self):
        return _state.cupy

    @property
    def supported_array_types(self):
        return (_state.ndarray,)

    @property
    def name(self):
        return '@cupy:{}'.format(self.device.id)

    def __eq__(self, other):
        return isinstance(other, GpuDevice) and other.device == self.device

    def __repr__(self):
        return '<{} (cupy):{}>'.format(type(self).__name__, self.device.id)

    def create_context(self):
        # a new cupy.cuda.Device: one instance cannot be used across threads
        return _state.cupy.cuda.Device(self.device.id)

    def send_array(self, array):
        return _array_to_gpu(array, self.device, None)

    def use(self):
        self.device.use()

    def is_array_supported(self, array):
        return isinstance(array, _state.ndarray) and self.device == array.device

    def __enter__(self):
        from minichainer import backend
        ctx = backend.using_device(self)
        self._contexts.append(ctx)
        ctx.__enter__()
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        self._contexts.pop().__exit__(exc_type, exc_value, traceback)


def get_device_from_id(device_id):
    """The `cupy.cuda.Device` of `device_id`; `DummyDevice` for None or a negative id."""
    if device_id is not None and device_id >= 0:
        check_cuda_available()
        return _state.cupy.cuda.Device(check_device_id(device_id, 'get_device_from_id'))
    return DummyDevice


def get_device_from_array(*arrays):
    """The `cupy.cuda.Device` of the first CuPy array, else `DummyDevice` (deprecated in
    Chainer: use `backend.get_device_from_array`)."""
    nd = _state.ndarray or _maybe_resolve()
    if nd is not None:
        for array in arrays:
            if isinstance(array, nd) and array.device is not None:
                return array.device
    return DummyDevice


def _get_cuda_device(*args):
    # a cupy.cuda.Device or DummyDevice
    for arg in args:
        if type(arg) is not bool and isinstance(arg, _integer_types):
            if arg < 0:
                return DummyDevice
            check_cuda_available()
            return _state.cupy.cuda.Device(check_device_id(arg, 'cuda.get_device'))
        nd = _state.ndarray or _maybe_resolve()
        if nd is not None:
            if isinstance(arg, nd):
                if arg.device is None:
                    continue
                return arg.device
            if isinstance(arg, _state.cupy.cuda.Device):
                return arg
    return DummyDevice


def get_device(*args):
    """Deprecated in Chainer: use `get_device_from_id`/`get_device_from_array`."""
    warnings.warn('get_device is deprecated. Please use get_device_from_id or '
                  'get_device_from_array instead.', DeprecationWarning)
    return _get_cuda_device(*args)


def _get_device_or_current(device):
    # a cupy.cuda.Device: None is the current one
    cupy_module = _state.cupy
    if device is None or device is DummyDevice:
        return cupy_module.cuda.Device()
    if isinstance(device, cupy_module.cuda.Device):
        return device
    if type(device) is bool or not isinstance(device, _integer_types) or device < 0:
        raise ValueError('Invalid CUDA device specifier: {!r}'.format(device))
    return cupy_module.cuda.Device(check_device_id(device, 'to_gpu'))


get_device_or_current = _get_device_or_current  # the name other modules call it by


def to_gpu(array, device=None, stream=None):
    """Copy an array (or a list/tuple/dict of arrays, None kept) to a GPU.

    `device`: a CUDA device id, a `cupy.cuda.Device`, or None (the current device).
    Arrays already on that device are returned as they are.
    """
    if stream is not None:
        warnings.warn('The stream option is deprecated in chainer.backends.cuda.to_gpu. '
                      'Please remove it.', DeprecationWarning)
    check_cuda_available()
    device = _get_device_or_current(device)
    return _backend.convert_arrays(array, lambda a: _array_to_gpu(a, device, stream))


def _array_to_gpu(array, device, stream):
    if array is None:
        return None
    cupy_module = _state.cupy
    if isinstance(array, (numpy.number, numpy.bool_)):
        array = numpy.asarray(array)
    if isinstance(array, cupy_module.ndarray):
        if array.device == device:
            return array
        with device:  # another GPU: a device-to-device copy
            return cupy_module.array(array, copy=True)
    if not isinstance(array, numpy.ndarray):
        raise TypeError('The array sent to gpu must be an array or a NumPy scalar.'
                        '\nActual type: {0}.'.format(type(array)))
    with device:
        return cupy_module.asarray(array)


def to_cpu(array, stream=None):
    """Copy an array (or a list/tuple/dict of arrays, None kept) to the host (NumPy)."""
    return _backend.convert_arrays(array, _cpu.array_to_cpu)


def copy(array, out=None, out_device=None, stream=None):
    """Copy a CuPy array, to `out` or to a new array on `out_device` (default: the
    array's device)."""
    check_cuda_available()
    cupy_module = _state.cupy
    if not isinstance(array, cupy_module.ndarray):
        raise TypeError('cuda.copy: array must be a cupy.ndarray, got {}'.format(
            type(array).__name__))
    if out is None:
        if out_device is None:
            dev = array.device
        elif isinstance(out_device, cupy_module.ndarray):
            dev = out_device.device
        else:
            dev = _get_device_or_current(
                out_device.device if isinstance(out_device, GpuDevice) else out_device)
        with dev:
            out = cupy_module.empty_like(array)
    with array.device:
        cupy_module.copyto(out, array)
    return out


# -- memoization and kernels -------------------------------------------------------------

_memoized = []


def memoize(for_each_device=False):
    """Memoize a function per argument tuple (and per device when `for_each_device`).

    Works without CuPy (a plain cache then). The cache is cleared by `clear_memo()` and
    when CuPy is resolved again.
    """
    def decorator(f):
        cache = {}
        _memoized.append(cache)

        @functools.wraps(f)
        def ret(*args, **kwargs):
            key = (args, tuple(sorted(kwargs.items())) if kwargs else ())
            if for_each_device and _state.cupy is not None:
                key = key + (_state.cupy.cuda.get_device_id(),)
            try:
                return cache[key]
            except KeyError:
                value = cache[key] = f(*args, **kwargs)
                return value
            except TypeError:  # unhashable arguments: not cached
                return f(*args, **kwargs)
        return ret
    return decorator


def clear_memo():
    """Clear the results memoized by `memoize` (and CuPy's own, where in use)."""
    for cache in _memoized:
        cache.clear()
    if _state.cupy is not None:
        _state.cupy.clear_memo()


@memoize(for_each_device=True)
def elementwise(in_params, out_params, operation, name, **kwargs):
    """A `cupy.ElementwiseKernel` (memoized per arguments and device)."""
    check_cuda_available()
    return _state.cupy.ElementwiseKernel(in_params, out_params, operation, name, **kwargs)


@memoize(for_each_device=True)
def reduce(in_params, out_params, map_expr, reduce_expr, post_map_expr, identity, name,
           **kwargs):
    """A `cupy.ReductionKernel` (memoized per arguments and device)."""
    check_cuda_available()
    return _state.cupy.ReductionKernel(in_params, out_params, map_expr, reduce_expr,
                                       post_map_expr, identity, name, **kwargs)


@memoize(for_each_device=True)
def raw(code, name, *args, **kwargs):
    """A `cupy.RawKernel` (memoized per arguments and device)."""
    check_cuda_available()
    return _state.cupy.RawKernel(code, name, *args, **kwargs)


def get_array_module(*args):
    """`numpy` or `cupy` for the arrays or Variables (deprecated in Chainer; use
    `backend.get_array_module`)."""
    from minichainer import backend
    return backend.get_array_module(*args)


def fuse(*args, **kwargs):
    """`cupy.fuse` where CuPy is available, else the function unchanged.

    The decision is taken when the fused function is first called, so decorating at import
    time does not import CuPy.
    """
    def decorator(f):
        fused = []

        @functools.wraps(f)
        def ret(*a, **k):
            if _state.cupy is None:
                return f(*a, **k)
            if not fused:
                fused.append(_state.cupy.fuse(*args, **kwargs)(f) if not direct
                             else _state.cupy.fuse(f))
            return fused[0](*a, **k)
        return ret
    direct = len(args) == 1 and callable(args[0]) and not kwargs
    if direct:
        return decorator(args[0])
    return decorator


def get_cudnn_dropout_states():
    """Raise `RuntimeError`: CuPy 14 has no cuDNN."""
    raise RuntimeError('get_cudnn_dropout_states: cuDNN is not available (CuPy 14 removed '
                       'it; minichainer does not use cuDNN)')


def set_max_workspace_size(size):
    """Accepted; no effect (no cuDNN)."""


def get_max_workspace_size():
    """0 (no cuDNN)."""
    return 0


def using_device(*args):
    """A CUDA device made current in a `with` block: from an int >= 0, a CuPy array or a
    `cupy.cuda.Device`; `DummyDevice` (nothing made current) otherwise."""
    return _get_cuda_device(*args)


def should_use_cudnn(level, lowest_version=0):
    """False: cuDNN is never used (CuPy 14 has none)."""
    return False


def should_use_cudnn_tensor_core(dtype):
    """False: cuDNN is never used (CuPy 14 has none)."""
    return False
