"""The functions of the CuPy test double's top-level namespace.

Every CuPy 14 top-level name that NumPy also has is offered: ufuncs as `_core.ufunc`,
routines as wrappers that take device arrays (a `numpy.ndarray` argument raises
`TypeError`, as CuPy's kernels do; array-creation routines take host data) and give
device arrays back, NumPy's types and constants as they are. Names CuPy lacks
(`numpy.insert`, `numpy.errstate`, `numpy.spacing`, ...) are absent here too.
"""
import functools
import importlib
import types
import warnings

import numpy

from . import _core
from ._core import ndarray
from ._core import ufunc
from ._core import unwrap_arg
from ._core import wrap_result
from ._names import CUPY_NAMES

# routines that take host data (array creation: a host-to-device copy is fine in CuPy)
_HOST_OK = frozenset((
    'fromfile', 'frombuffer', 'fromstring', 'fromfunction', 'fromiter', 'loadtxt',
    'genfromtxt', 'empty_like', 'zeros_like', 'ones_like', 'full_like', 'asnumpy',
    'result_type', 'can_cast', 'min_scalar_type', 'ndim', 'shape', 'size', 'isscalar',
    'iscomplexobj', 'isrealobj', 'isfortran', 'broadcast_shapes', 'common_type',
))
# routines whose result is not an array (returned as they are)
_PASS_RESULT = frozenset(('ndim', 'shape', 'size', 'isscalar', 'result_type', 'can_cast',
                          'min_scalar_type', 'iscomplexobj', 'isrealobj', 'isfortran',
                          'common_type'))
_SPECIAL = frozenset((
    'array', 'asarray', 'asanyarray', 'ascontiguousarray', 'asfortranarray', 'copyto',
    'asnumpy', 'get_array_module', 'fuse', 'memoize', 'clear_memo', 'ElementwiseKernel',
    'ReductionKernel', 'RawKernel', 'RawModule', 'get_default_memory_pool',
    'get_default_pinned_memory_pool', 'is_available', 'may_share_memory',
    'shares_memory', 'save', 'savez', 'savez_compressed', 'load', 'array_repr',
    'array_str', 'ndarray', 'ufunc', 'matmul', 'printoptions', 'set_printoptions',
    'get_printoptions', 'random', 'linalg', 'fft', 'testing', 'cuda', 'cupyx',
))

UFUNCS = {}


def _dev_of(args, kwargs):
    for a in args:
        if type(a) is ndarray:
            return a._dev
    for a in kwargs.values():
        if type(a) is ndarray:
            return a._dev
    return None


def wrap_function(np_func, name, host_ok=False, pass_result=False):
    """A CuPy-like routine over NumPy's `np_func`."""

    def func(*args, **kwargs):
        out = kwargs.pop('out', None)
        dev = _dev_of(args, kwargs)
        args = tuple(unwrap_arg(a, host_ok) for a in args)
        kwargs = {k: unwrap_arg(v, host_ok) for k, v in kwargs.items()}
        if out is not None:
            o = _core._out(out)
            np_func(*args, out=o._a, **kwargs)
            return o
        r = np_func(*args, **kwargs)
        return r if pass_result else wrap_result(r, dev)

    func.__name__ = name
    func.__qualname__ = name
    func.__module__ = 'cupy'
    func.__doc__ = 'CuPy test double of numpy.{}.'.format(name)
    func._np_func = np_func
    return func


def get_ufunc(name):
    f = UFUNCS.get(name)
    if f is None:
        try:
            special = importlib.import_module(__package__.rpartition('.')[0] +
                                              '.cupyx.scipy.special')
        except ImportError:
            return None
        f = special.UFUNCS.get(name)
    return f


def get_function(func):
    """CuPy's lookup for `__array_function__`: the same name in the same submodule."""
    mod = importlib.import_module(__package__)
    try:
        for part in func.__module__.split('.')[1:]:
            mod = getattr(mod, part)
        target = getattr(mod, func.__name__)
    except AttributeError:
        return None
    if target is func:
        return None
    return target


def _cupy_module():
    return importlib.import_module(__package__)


# -- special routines ------------------------------------------------------------------

def array(obj, dtype=None, copy=True, order='K', subok=False, ndmin=0, blocking=False):
    if type(obj) is ndarray:
        a = obj._a
        if copy is False and (dtype is None or numpy.dtype(dtype) == a.dtype) and \
                a.ndim >= ndmin:
            return obj
        # an explicit copy: from another device too (a device-to-device copy)
        r = numpy.array(a, dtype=dtype, copy=True, order=order, ndmin=ndmin)
        return _core._new(r)
    r = numpy.array(unwrap_arg(obj, allow_host=True), dtype=dtype, order=order,
                    ndmin=ndmin)
    return _core._new(r)


def asarray(a, dtype=None, order=None, blocking=False):
    return array(a, dtype=dtype, copy=False, order=order or 'K')


asanyarray = asarray


def ascontiguousarray(a, dtype=None):
    # CuPy keeps the shape (NumPy's makes 0-dim arrays 1-dim)
    if type(a) is ndarray and a._a.flags.c_contiguous and (
            dtype is None or numpy.dtype(dtype) == a.dtype):
        return a
    if type(a) is ndarray:
        return _core._new(numpy.array(a._a, dtype, order='C'), a._dev)
    return _core._new(numpy.array(unwrap_arg(a, True), dtype, order='C'))


def asfortranarray(a, dtype=None):
    if type(a) is ndarray:
        return _core._new(numpy.asfortranarray(a._a, dtype), a._dev)
    return _core._new(numpy.asfortranarray(unwrap_arg(a, True), dtype))


def copyto(dst, src, casting='same_kind', where=True):
    if type(dst) is not ndarray:
        raise TypeError('copyto: dst must be a cupy.ndarray, got {}'.format(type(dst)))
    _core._check_device(dst)
    if type(where) is ndarray:
        where = where._a
    numpy.copyto(dst._a, unwrap_arg(src, allow_host=True), casting=casting, where=where)


def asnumpy(a, stream=None, order='C', out=None, blocking=True):
    if type(a) is ndarray:
        return a.get(stream=stream, order=order, out=out, blocking=blocking)
    r = numpy.asarray(a, order=order)
    if out is not None:
        out[...] = r
        return out
    return r


def get_array_module(*args):
    for a in args:
        if type(a) is ndarray:
            return _cupy_module()
    return numpy


def may_share_memory(a, b, max_work=None):
    return numpy.may_share_memory(unwrap_arg(a), unwrap_arg(b))


def shares_memory(a, b, max_work=None):
    return numpy.shares_memory(unwrap_arg(a), unwrap_arg(b))


def array_repr(arr, *args, **kwargs):
    return repr(arr)


def array_str(arr, *args, **kwargs):
    return str(arr)


def save(file, arr, allow_pickle=None):
    numpy.save(file, asnumpy(arr), allow_pickle=bool(allow_pickle))


def savez(file, *args, **kwds):
    numpy.savez(file, *[asnumpy(a) for a in args], **{k: asnumpy(v) for k, v in
                                                       kwds.items()})


def savez_compressed(file, *args, **kwds):
    numpy.savez_compressed(file, *[asnumpy(a) for a in args],
                           **{k: asnumpy(v) for k, v in kwds.items()})


def load(file, mmap_mode=None, allow_pickle=None):
    obj = numpy.load(file, mmap_mode=mmap_mode, allow_pickle=bool(allow_pickle))
    if isinstance(obj, numpy.ndarray):
        return array(obj)
    return obj


def fuse(*args, **kwargs):
    """`cupy.fuse`: the double runs the Python function as it is (no kernel is built)."""
    def decorator(f):
        @functools.wraps(f)
        def fused(*a, **k):
            return f(*a, **k)
        fused._cupy_double_fused = True
        return fused
    if len(args) == 1 and callable(args[0]) and not kwargs:
        return decorator(args[0])
    return decorator


_memo_caches = []


def memoize(for_each_device=False):
    def decorator(f):
        cache = {}
        _memo_caches.append(cache)

        @functools.wraps(f)
        def ret(*args, **kwargs):
            key = (args, frozenset(kwargs.items()),
                   _core.current_device_id() if for_each_device else None)
            if key not in cache:
                cache[key] = f(*args, **kwargs)
            return cache[key]
        return ret
    return decorator


def clear_memo():
    for cache in _memo_caches:
        cache.clear()


class _Kernel:
    """CUDA C kernels cannot run in the double: building one works, calling it raises."""

    _kind = 'kernel'

    def __init__(self, *args, **kwargs):
        self.args = args
        self.kwargs = kwargs
        self.name = kwargs.get('name') or (args[3] if len(args) > 3 and isinstance(
            args[3], str) else None)

    def __call__(self, *args, **kwargs):
        raise NotImplementedError(
            'cupy.{} {!r}: the CuPy test double cannot run CUDA C code; give the function '
            'an array-module path (vectorised xp calls) or test it on a real GPU'.format(
                self._kind, self.name))

    def get_function(self, name):
        return self


class ElementwiseKernel(_Kernel):
    _kind = 'ElementwiseKernel'


class ReductionKernel(_Kernel):
    _kind = 'ReductionKernel'


class RawKernel(_Kernel):
    _kind = 'RawKernel'

    def __init__(self, code, name, *args, **kwargs):
        super().__init__(code, name, *args, name=name, **kwargs)


class RawModule(_Kernel):
    _kind = 'RawModule'


def get_default_memory_pool():
    from .cuda import memory
    return memory._default_pool


def get_default_pinned_memory_pool():
    from .cuda import memory
    return memory._default_pinned_pool


def is_available():
    return _core.state.device_count > 0


printoptions = numpy.printoptions
set_printoptions = numpy.set_printoptions
get_printoptions = numpy.get_printoptions


def _build():
    ns = {}
    for name in sorted(CUPY_NAMES):
        if name.startswith('_') or name in _SPECIAL:
            continue
        with warnings.catch_warnings():  # NumPy 1.26 warns on its removed aliases
            warnings.simplefilter('ignore')
            obj = getattr(numpy, name, None)
        if obj is None and name not in ('newaxis',):
            continue
        if isinstance(obj, numpy.ufunc):
            uf = UFUNCS.get(obj.__name__)
            if uf is None:
                uf = ufunc(obj)
                UFUNCS[obj.__name__] = uf
            UFUNCS[name] = uf
            ns[name] = uf
        elif isinstance(obj, types.ModuleType):
            continue
        elif isinstance(obj, type) or not callable(obj):
            ns[name] = obj  # dtypes, scalar types, finfo/iinfo, constants
        else:
            ns[name] = wrap_function(obj, name, host_ok=name in _HOST_OK,
                                     pass_result=name in _PASS_RESULT)
    # NumPy 2's matmul is a ufunc; CuPy's is a generalized ufunc (no .at/.reduce)
    ns['matmul'] = matmul
    UFUNCS['matmul'] = matmul
    for name in ('array', 'asarray', 'asanyarray', 'ascontiguousarray', 'asfortranarray',
                 'copyto', 'asnumpy', 'get_array_module', 'fuse', 'memoize', 'clear_memo',
                 'ElementwiseKernel', 'ReductionKernel', 'RawKernel', 'RawModule',
                 'get_default_memory_pool', 'get_default_pinned_memory_pool',
                 'is_available', 'may_share_memory', 'shares_memory', 'save', 'savez',
                 'savez_compressed', 'load', 'array_repr', 'array_str', 'printoptions',
                 'set_printoptions', 'get_printoptions'):
        ns[name] = globals()[name]
    ns['ndarray'] = ndarray
    ns['ufunc'] = ufunc
    ns['newaxis'] = None
    return ns


class _MatMul:
    __name__ = 'matmul'
    nin = 2
    nout = 1

    def __call__(self, a, b, out=None, **kwargs):
        x = _core.operand(a)
        y = _core.operand(b)
        if out is not None:
            o = _core._out(out)
            numpy.matmul(x, y, out=o._a, **kwargs)
            return o
        return wrap_result(numpy.matmul(x, y, **kwargs))


matmul = _MatMul()
NAMESPACE = _build()
_core._UFUNCS.update(UFUNCS)
for _k, _v in NAMESPACE.items():
    globals().setdefault(_k, _v)
