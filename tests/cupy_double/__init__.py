"""A CuPy test double for the CPU: an array module that fails where CuPy would.

`cupy_double.cupy` and `cupy_double.cupyx` stand for `cupy` and `cupyx`;
`installed()` puts them in `sys.modules` and makes minichainer resolve CuPy again (through
`minichainer.backends.cuda.resolve_cupy()`), so `@cupy:0` is a `GpuDevice` whose arrays
are the double's. See /work/notes/gpu-double.md and docs/gpu.md for what it checks and what
it cannot.

Control (not part of CuPy's API):
    host_transfers()          number of device-to-host copies since the last reset
    forbid_host_transfer()    context manager: any device-to-host copy raises
                              `cupyx.DeviceSynchronized` (real CuPy: `allow_synchronize`)
    set_device_count(n)       how many GPUs `cupy.cuda.runtime.getDeviceCount()` reports
    out_of_memory()           context manager: every allocation raises
                              `cupy.cuda.memory.OutOfMemoryError`
    reset()                   counters, device count 1, current device 0, RNG states
    installed()               context manager installing the double as CuPy
"""
import contextlib
import sys
import warnings

from . import cupy  # noqa: F401
from . import cupyx  # noqa: F401
from .cupy import _core

DeviceSynchronized = _core.DeviceSynchronized
OutOfMemoryError = _core.OutOfMemoryError
ndarray = _core.ndarray


def _module_table():
    return {
        'cupy': cupy,
        'cupy.cuda': cupy.cuda,
        'cupy.cuda.runtime': cupy.cuda.runtime,
        'cupy.cuda.memory': cupy.cuda.memory,
        'cupy.random': cupy.random,
        'cupy.linalg': cupy.linalg,
        'cupy.fft': cupy.fft,
        'cupy.testing': cupy.testing,
        'cupy.lib': cupy.lib,
        'cupy.lib.stride_tricks': cupy.lib.stride_tricks,
        'cupyx': cupyx,
        'cupyx.scipy': cupyx.scipy,
        'cupyx.scipy.special': cupyx.scipy.special,
    }


def host_transfers():
    """Device-to-host copies counted since the last `reset()`."""
    return _core.state.host_transfers


def reset():
    """Zero the counter, one device, device 0 current, fresh RNG states, memory back."""
    _core.state.reset()
    _core.set_current_device_id(0)
    _core.set_sync_allowed(True)
    cupy.random.reset_states()
    cupy.clear_memo()


def set_device_count(n):
    """Make `getDeviceCount()` report `n` GPUs (devices 0..n-1 then exist)."""
    _core.state.device_count = int(n)


@contextlib.contextmanager
def forbid_host_transfer():
    """Within the block, any device-to-host copy raises `DeviceSynchronized`.

    With real CuPy in use (a GPU run), this is `cupyx.allow_synchronize(False)`: any
    device synchronization raises there.
    """
    from minichainer.backends import cuda
    target = cupyx
    if cuda.cupy_state.ndarray is not None and not is_double(cuda.cupy_state.cupy):
        target = cuda.cupyx  # real CuPy
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', FutureWarning)
        warnings.simplefilter('ignore', DeprecationWarning)
        ctx = target.allow_synchronize(False)
        ctx.__enter__()
    try:
        yield
    except BaseException:
        if not ctx.__exit__(*sys.exc_info()):
            raise
    else:
        ctx.__exit__(None, None, None)


@contextlib.contextmanager
def out_of_memory():
    """Within the block, every new device allocation raises `OutOfMemoryError`."""
    old = _core.state.out_of_memory
    _core.state.out_of_memory = True
    try:
        yield
    finally:
        _core.state.out_of_memory = old


def is_double(xp):
    """True when `xp` is this double's `cupy` module."""
    return getattr(xp, 'is_cupy_double', False) is True


@contextlib.contextmanager
def installed():
    """Install the double as `cupy`/`cupyx` for minichainer; restore everything after."""
    from minichainer.backends import cuda
    table = _module_table()
    saved = {name: sys.modules.get(name) for name in list(sys.modules)
             if name in table or name.startswith(('cupy.', 'cupyx.'))}
    for name in list(saved):
        del sys.modules[name]
    reset()
    sys.modules.update(table)
    try:
        cuda.resolve_cupy()
        yield cupy
    finally:
        for name in table:
            sys.modules.pop(name, None)
        for name, mod in saved.items():
            if mod is not None:
                sys.modules[name] = mod
        reset()
        cuda.resolve_cupy()
