"""`cupy.cuda` of the test double: devices (1 by default), streams, events, memory pools.

`runtime` and `memory` are submodule objects (registered in `sys.modules` as
`cupy.cuda.runtime`/`cupy.cuda.memory` when the double is installed).
"""
import time
import types

from . import _core
from ._core import OutOfMemoryError


class CUDARuntimeError(RuntimeError):
    def __init__(self, status, msg=None):
        self.status = status
        super().__init__(msg or 'cudaError {}'.format(status))


def _check_id(device_id):
    n = _core.state.device_count
    if n == 0:
        raise CUDARuntimeError(100, 'cudaErrorNoDevice: no CUDA-capable device is detected')
    if not 0 <= device_id < n:
        raise CUDARuntimeError(101, 'cudaErrorInvalidDevice: invalid device ordinal')


class Device:
    """`cupy.cuda.Device`: `with Device(i):` makes device i current in this thread."""

    def __init__(self, device=None):
        if device is None:
            device = _core.current_device_id()
        elif isinstance(device, Device):
            device = device.id
        self.id = int(device)
        self._prev = []

    def use(self):
        _check_id(self.id)
        _core.set_current_device_id(self.id)

    def __enter__(self):
        _check_id(self.id)
        self._prev.append(_core.current_device_id())
        _core.set_current_device_id(self.id)
        return self

    def __exit__(self, *args):
        _core.set_current_device_id(self._prev.pop())

    def synchronize(self):
        pass

    def __int__(self):
        return self.id

    __index__ = __int__

    def __eq__(self, other):
        return isinstance(other, Device) and other.id == self.id

    def __ne__(self, other):
        return not self == other

    def __lt__(self, other):
        return self.id < other.id

    def __hash__(self):
        return hash(('cupy_double.Device', self.id))

    def __repr__(self):
        return '<CUDA Device {}>'.format(self.id)

    @property
    def compute_capability(self):
        return '90'

    @property
    def mem_info(self):
        return (80 * 2 ** 30, 80 * 2 ** 30)


class Stream:
    """`cupy.cuda.Stream` (every operation of the double is already synchronous)."""

    null = None

    def __init__(self, null=False, non_blocking=False, ptr=None):
        self.ptr = 0 if null else id(self)

    def synchronize(self):
        pass

    def use(self):
        return self

    def __enter__(self):
        return self

    def __exit__(self, *args):
        pass

    def record(self, event=None):
        event = event or Event()
        event.record(self)
        return event

    def wait_event(self, event):
        pass

    def add_callback(self, callback, arg):
        callback(self, None, arg)

    @property
    def done(self):
        return True


Stream.null = Stream(null=True)
ExternalStream = Stream


def get_current_stream(device_id=None):
    return Stream.null


class Event:
    def __init__(self, block=False, disable_timing=False, interprocess=False):
        self._t = None

    def record(self, stream=None):
        self._t = time.perf_counter()

    def synchronize(self):
        pass

    @property
    def done(self):
        return True


def get_elapsed_time(start_event, end_event):
    return (end_event._t - start_event._t) * 1000.0


def get_device_id():
    return _core.current_device_id()


def is_available():
    return _core.state.device_count > 0


class MemoryPool:
    def __init__(self, allocator=None):
        self._limit = 0

    def used_bytes(self):
        return 0

    def free_bytes(self):
        return 0

    def total_bytes(self):
        return 0

    def free_all_blocks(self, stream=None):
        pass

    def free_all_free(self):
        pass

    def n_free_blocks(self):
        return 0

    def set_limit(self, size=None, fraction=None):
        self._limit = size or 0

    def get_limit(self):
        return self._limit

    def malloc(self, size):
        if _core.state.out_of_memory:
            raise OutOfMemoryError(size, _core.state.allocated_bytes)
        return _core._MemoryPointer(bytearray(1), _core.current_device_id())


class PinnedMemoryPool(MemoryPool):
    pass


def _runtime_module():
    m = types.ModuleType('cupy.cuda.runtime')
    m.CUDARuntimeError = CUDARuntimeError
    m.is_hip = False

    def getDeviceCount():
        n = _core.state.device_count
        if n == 0:
            raise CUDARuntimeError(100,
                                   'cudaErrorNoDevice: no CUDA-capable device is detected')
        return n

    def getDevice():
        return _core.current_device_id()

    def setDevice(device):
        Device(device).use()

    def getDeviceProperties(device):
        _check_id(device)
        return {'name': b'CuPy test double (CPU)', 'totalGlobalMem': 80 * 2 ** 30,
                'multiProcessorCount': 132, 'major': 9, 'minor': 0}

    def memGetInfo():
        return (80 * 2 ** 30, 80 * 2 ** 30)

    m.getDeviceCount = getDeviceCount
    m.getDevice = getDevice
    m.setDevice = setDevice
    m.getDeviceProperties = getDeviceProperties
    m.memGetInfo = memGetInfo
    m.deviceSynchronize = lambda: None
    m.runtimeGetVersion = lambda: 13000
    m.driverGetVersion = lambda: 13000
    m.deviceCanAccessPeer = lambda a, b: 0
    return m


def _memory_module():
    m = types.ModuleType('cupy.cuda.memory')
    m.OutOfMemoryError = OutOfMemoryError
    m.MemoryPool = MemoryPool
    m.PinnedMemoryPool = PinnedMemoryPool
    m.MemoryPointer = _core._MemoryPointer
    m._default_pool = MemoryPool()
    m._default_pinned_pool = PinnedMemoryPool()
    m.set_allocator = lambda allocator=None: None
    m.malloc_managed = None
    return m


runtime = _runtime_module()
memory = _memory_module()
set_allocator = memory.set_allocator
alloc = lambda size: memory._default_pool.malloc(size)  # noqa: E731
MemoryPointer = _core._MemoryPointer
