"""The array type of the CuPy test double: a device array that is not a NumPy array.

`ndarray` wraps a `numpy.ndarray` (its "device memory") and behaves like `cupy.ndarray`
where minichainer could go wrong on a GPU:

- it is not a `numpy.ndarray`; `numpy.asarray(x)`/`__array__` raise CuPy's `TypeError`;
- an operation mixing it with a `numpy.ndarray` operand raises `TypeError` (NumPy and
  Python scalars are fine), as CuPy's kernels do;
- NumPy functions and ufuncs called on it dispatch (`__array_function__`,
  `__array_ufunc__`) only to the names CuPy 14 has;
- reductions and single-element indexing give 0-dim device arrays, not NumPy scalars;
- every device-to-host copy (`get`, `asnumpy`, `item`, `tolist`, `float()`, `int()`,
  `bool()`, printing, pickling) goes through `_to_host`, which counts it and raises
  `DeviceSynchronized` inside `cupyx.allow_synchronize(False)`;
- each array lives on a device id; an operation on arrays of a device other than the
  current one raises (real CuPy needs peer access there).
"""
import builtins
import os
import threading

import numpy


class _State:
    """Process-wide state of the double (reset by `cupy_double.reset()`)."""

    def __init__(self):
        # At import (a process that loads the double as its CuPy):
        # CUDA_VISIBLE_DEVICES='' hides every GPU, as with CUDA ('0,1' shows two).
        visible = os.environ.get('CUDA_VISIBLE_DEVICES')
        self.reset(1 if visible is None else len([d for d in visible.split(',')
                                                   if d.strip()]))

    def reset(self, device_count=1):
        self.host_transfers = 0
        self.device_count = device_count
        self.out_of_memory = False
        self.allocated_bytes = 0


state = _State()
_local = threading.local()


def current_device_id():
    return getattr(_local, 'device', 0)


def set_current_device_id(device_id):
    _local.device = device_id


def sync_allowed():
    return getattr(_local, 'sync_allowed', True)


def set_sync_allowed(allowed):
    _local.sync_allowed = allowed


class DeviceSynchronized(RuntimeError):
    """Raised on a device-to-host copy (a synchronization) while disallowed."""

    def __init__(self, message=None):
        if message is None:
            message = 'Device synchronization was detected while disallowed.'
        super().__init__(message)


class OutOfMemoryError(MemoryError):
    """`cupy.cuda.memory.OutOfMemoryError` (same message format)."""

    def __init__(self, size, total, limit=0):
        self._size = size
        self._total = total
        self._limit = limit
        msg = 'Out of memory allocating {:,} bytes'.format(size)
        if total != -1:
            msg += ' (allocated so far: {:,} bytes).'.format(total)
        super().__init__(msg)

    def __reduce__(self):
        return type(self), (self._size, self._total, self._limit)


_PY_SCALARS = (bool, int, float, complex)


def _unsupported(x):
    return TypeError('Unsupported type {}'.format(type(x)))


def _to_host(x, what):
    """The one way from the device to the host: counted, and refused when disallowed."""
    if not sync_allowed():
        raise DeviceSynchronized(
            'Device synchronization was detected while disallowed ({} of a cupy.ndarray '
            'of shape {}: a device-to-host copy).'.format(what, x._a.shape))
    state.host_transfers += 1
    return x._a


def _check_device(x):
    cur = current_device_id()
    if x._dev != cur:
        raise ValueError(
            'The device where the array resides ({}) is different from the current device '
            '({}). Peer access is unavailable between these devices (the CuPy test double '
            'allows no implicit cross-device access).'.format(x._dev, cur))


_SUPPORTED_KINDS = frozenset('biufc')


def _check_dtype(dtype):
    # CuPy arrays hold bool, integers, float16/32/64 and complex64/128 only
    if dtype.kind not in _SUPPORTED_KINDS or (dtype.kind == 'f' and dtype.itemsize > 8) or (
            dtype.kind == 'c' and dtype.itemsize > 16):
        raise TypeError('Unsupported dtype {}'.format(dtype))


def _new(a, dev=None):
    """Wrap a NumPy result as a device array (a fresh allocation: may raise OOM)."""
    if isinstance(a, numpy.generic):
        a = numpy.asarray(a)
    if a.dtype.kind not in _SUPPORTED_KINDS or a.dtype.itemsize > 8 and a.dtype.kind == 'f':
        _check_dtype(a.dtype)
    if state.out_of_memory:
        raise OutOfMemoryError(a.nbytes, state.allocated_bytes)
    obj = ndarray.__new__(ndarray)
    obj._a = a
    obj._dev = current_device_id() if dev is None else dev
    return obj


def _view(a, dev):
    if isinstance(a, numpy.generic):
        a = numpy.asarray(a)
    obj = ndarray.__new__(ndarray)
    obj._a = a
    obj._dev = dev
    return obj


def wrap_result(r, dev=None):
    """Wrap NumPy arrays/scalars (recursively in tuples and lists) as device arrays."""
    if isinstance(r, (numpy.ndarray, numpy.generic)):
        return _new(r, dev)
    if type(r) is tuple:
        return tuple(wrap_result(v, dev) for v in r)
    if type(r) is list:
        return [wrap_result(v, dev) for v in r]
    return r


def operand(x):
    """The NumPy value behind a kernel operand: a device array or a scalar."""
    if type(x) is ndarray:
        _check_device(x)
        return x._a
    if type(x) in _PY_SCALARS or isinstance(x, numpy.generic):
        return x
    raise _unsupported(x)


def unwrap_arg(x, allow_host=False):
    """Unwrap a function argument (recursing into lists/tuples); NumPy arrays refused."""
    t = type(x)
    if t is ndarray:
        _check_device(x)
        return x._a
    if t is list or t is tuple:
        return t(unwrap_arg(v, allow_host) for v in x)
    if isinstance(x, numpy.ndarray) and not allow_host:
        raise _unsupported(x)
    return x


def unwrap_index(key):
    """Unwrap an index: device arrays and NumPy arrays (sent to the device) are fine."""
    if type(key) is ndarray:
        _check_device(key)
        return key._a
    if type(key) is tuple:
        return tuple(unwrap_index(k) for k in key)
    if type(key) is list:
        return [unwrap_index(k) for k in key]
    return key


def _out(out):
    if out is None:
        return None
    if type(out) is tuple:
        if len(out) != 1:
            raise ValueError("The 'out' parameter must have exactly one array value")
        out = out[0]
    if type(out) is not ndarray:
        raise TypeError('Output arguments must be cupy.ndarray')
    _check_device(out)
    return out


class ufunc:
    """A `cupy.ufunc`: NumPy's ufunc on device operands, with CuPy's methods."""

    _SCATTER = frozenset(('add', 'subtract', 'maximum', 'minimum', 'bitwise_and',
                          'bitwise_or', 'bitwise_xor'))

    def __init__(self, np_ufunc, name=None):
        self._f = np_ufunc
        self._name = name or np_ufunc.__name__
        self.name = 'cupy_' + self._name
        self.__name__ = self.name
        self.nin = np_ufunc.nin
        self.nout = np_ufunc.nout
        self.nargs = np_ufunc.nargs
        self.__doc__ = 'CuPy test double of ufunc {}.'.format(self._name)

    def __repr__(self):
        return '<ufunc {!r}>'.format(self.name)

    def __call__(self, *args, out=None, dtype=None, casting='same_kind', where=None, **kw):
        if len(args) > self.nin:
            if out is not None:
                raise ValueError('cannot specify \'out\' as both a positional and keyword '
                                 'argument')
            out = args[self.nin:]
            if len(out) == 1:
                out = out[0]
            args = args[:self.nin]
        arrays = [operand(a) for a in args]
        kwargs = {'dtype': dtype, 'casting': casting}
        kwargs.update(kw)
        if where is not None:
            kwargs['where'] = operand(where)
        if out is not None:
            if self.nout > 1:
                outs = tuple(_out(o) for o in out)
                self._f(*arrays, out=tuple(o._a for o in outs), **kwargs)
                return outs
            o = _out(out)
            self._f(*arrays, out=o._a, **kwargs)
            return o
        return wrap_result(self._f(*arrays, **kwargs))

    def at(self, a, indices, b=None):
        if self._name not in self._SCATTER:
            raise NotImplementedError('`{}.at` is not supported yet'.format(self.name))
        if type(a) is not ndarray:
            raise TypeError('{}.at: the operand must be a cupy.ndarray, got {}'.format(
                self.name, type(a)))
        _check_device(a)
        idx = unwrap_index(indices)
        if b is None:
            self._f.at(a._a, idx)
        else:
            self._f.at(a._a, idx, unwrap_arg(b, allow_host=True))

    def reduce(self, array, axis=0, dtype=None, out=None, keepdims=False):
        if self._name not in ('add', 'multiply'):
            raise NotImplementedError('`{}.reduce` is not supported yet'.format(self.name))
        meth = array.sum if self._name == 'add' else array.prod
        return meth(axis, dtype, out, keepdims)

    def accumulate(self, array, axis=0, dtype=None, out=None):
        if self._name not in ('add', 'multiply'):
            raise NotImplementedError(
                '`{}.accumulate` is not supported yet'.format(self.name))
        meth = array.cumsum if self._name == 'add' else array.cumprod
        return meth(axis, dtype, out)

    def reduceat(self, array, indices, axis=0, dtype=None, out=None):
        if self._name != 'add':
            raise NotImplementedError('`{}.reduceat` is not supported yet'.format(self.name))
        r = self._f.reduceat(operand(array), unwrap_index(indices), axis=axis, dtype=dtype)
        if out is not None:
            o = _out(out)
            o._a[...] = r
            return o
        return wrap_result(r)

    def outer(self, A, B, **kwargs):
        A = A if type(A) is ndarray else _module().array(A)
        B = B if type(B) is ndarray else _module().array(B)
        ndim_a, ndim_b = A.ndim, B.ndim
        A = A.reshape(A.shape + (1,) * ndim_b)
        B = B.reshape((1,) * ndim_a + B.shape)
        return self(A, B, **kwargs)


def _module():
    from . import _namespace
    return _namespace


def _rop(self, other):
    # CuPy hands the operation to the other operand when it has a higher
    # __array_priority__ and is not a cupy.ndarray (e.g. a chainer.Variable).
    return (type(other) is not ndarray
            and getattr(other, '__array_priority__', 0) > ndarray.__array_priority__)


def _binop(name, reflected=False, inplace=False):
    def op(self, other):
        uf = _UFUNCS[name]
        if inplace:
            return uf(self, other, out=self)
        if _rop(self, other):
            return NotImplemented
        if reflected:
            return uf(other, self)
        return uf(self, other)
    op.__name__ = name
    return op


_UFUNCS = {}
_HOST_OK_METHODS = frozenset(('take', 'put', 'repeat', 'compress', 'choose', 'fill'))


def _method(name, host_ok=False):
    def m(self, *args, **kwargs):
        _check_device(self)
        args = tuple(unwrap_arg(a, host_ok) for a in args)
        out = kwargs.get('out')
        if out is not None:
            o = _out(out)
            kwargs['out'] = o._a
            getattr(self._a, name)(*args, **kwargs)
            return o
        kwargs = {k: unwrap_arg(v, host_ok) for k, v in kwargs.items()}
        r = getattr(self._a, name)(*args, **kwargs)
        return None if r is None else wrap_result(r, self._dev)
    m.__name__ = name
    return m


def _view_method(name):
    def m(self, *args, **kwargs):
        return _view(getattr(self._a, name)(*args, **kwargs), self._dev)
    m.__name__ = name
    return m


class _Flags:
    __slots__ = ('_f',)

    def __init__(self, f):
        self._f = f

    c_contiguous = property(lambda self: self._f.c_contiguous)
    f_contiguous = property(lambda self: self._f.f_contiguous)
    owndata = property(lambda self: self._f.owndata)

    def __getitem__(self, key):
        return self._f[{'C_CONTIGUOUS': 'C_CONTIGUOUS', 'F_CONTIGUOUS': 'F_CONTIGUOUS',
                        'OWNDATA': 'OWNDATA'}[key]]

    def __repr__(self):
        return ('  C_CONTIGUOUS : {}\n  F_CONTIGUOUS : {}\n  OWNDATA : {}'.format(
            self.c_contiguous, self.f_contiguous, self.owndata))


class _MemoryPointer:
    __slots__ = ('ptr', 'device_id')

    def __init__(self, a, dev):
        self.ptr = a.__array_interface__['data'][0]
        self.device_id = dev


class ndarray:
    """`cupy.ndarray` of the test double (holds a NumPy array as its device memory)."""

    __slots__ = ('_a', '_dev', '__weakref__')
    __array_priority__ = 100
    __hash__ = None

    def __init__(self, shape, dtype=float, memptr=None, strides=None, order='C'):
        if memptr is not None or strides is not None:
            raise NotImplementedError('cupy_double.ndarray: memptr/strides are not supported')
        a = numpy.empty(shape, dtype, order=order)
        _check_dtype(a.dtype)
        if state.out_of_memory:
            raise OutOfMemoryError(a.nbytes, state.allocated_bytes)
        self._a = a
        self._dev = current_device_id()

    # -- what CuPy refuses --------------------------------------------------------
    def __array__(self, dtype=None, copy=None):
        raise TypeError(
            'Implicit conversion to a NumPy array is not allowed. '
            'Please use `.get()` to construct a NumPy array explicitly.')

    def __array_ufunc__(self, ufunc_, method, *inputs, **kwargs):
        from . import _namespace
        if 'out' in kwargs:
            out = kwargs['out']
            if len(out) != 1:
                raise ValueError("The 'out' parameter must have exactly one array value")
            inputs_out = inputs + out
            kwargs['out'] = out[0]
        else:
            inputs_out = inputs
        if method not in ('__call__', 'outer', 'at', 'reduce', 'accumulate', 'reduceat'):
            return NotImplemented
        func = _namespace.get_ufunc(ufunc_.__name__)
        if func is None:
            return NotImplemented
        if method != '__call__':
            func = getattr(func, method)
        for x in inputs_out:
            if not (type(x) in _PY_SCALARS or isinstance(x, (numpy.generic, ndarray,
                                                               numpy.ndarray))):
                return NotImplemented
        if ufunc_.__name__ in ('greater', 'greater_equal', 'less', 'less_equal', 'equal',
                               'not_equal'):
            inputs = tuple(x.item() if isinstance(x, numpy.ndarray) and x.ndim == 0 else x
                           for x in inputs)
        return func(*inputs, **kwargs)

    def __array_function__(self, func, types, args, kwargs):
        from . import _namespace
        target = _namespace.get_function(func)
        if target is None:
            return NotImplemented
        for t in types:
            if not issubclass(t, (ndarray, numpy.ndarray)):
                return NotImplemented
        return target(*args, **kwargs)

    @property
    def __cuda_array_interface__(self):
        return {'shape': self._a.shape, 'typestr': self._a.dtype.str,
                'data': (self._a.__array_interface__['data'][0], False), 'version': 3,
                'strides': None if self._a.flags.c_contiguous else self._a.strides}

    # -- the host -----------------------------------------------------------------
    def get(self, stream=None, order='C', out=None, blocking=True):
        a = _to_host(self, 'get()')
        if out is not None:
            if not isinstance(out, numpy.ndarray):
                raise TypeError('Only numpy.ndarray can be obtained from cupy.ndarray')
            if out.shape != a.shape:
                raise ValueError('Shape mismatch. Expected shape: {}, actual shape: {}'
                                 .format(a.shape, out.shape))
            numpy.copyto(out, a)
            return out
        return numpy.array(a, order=order, copy=True)

    def set(self, arr, stream=None):
        if not isinstance(arr, numpy.ndarray):
            raise TypeError('Only numpy.ndarray can be set to cupy.ndarray')
        if arr.shape != self._a.shape:
            raise ValueError('Shape mismatch. Old shape: {}, new shape: {}'.format(
                self._a.shape, arr.shape))
        if arr.dtype != self._a.dtype:
            raise TypeError('{} array cannot be set to {} array'.format(arr.dtype,
                                                                          self._a.dtype))
        self._a[...] = arr

    def item(self, *args):
        return _to_host(self, 'item()').item(*args)

    def tolist(self):
        return _to_host(self, 'tolist()').tolist()

    def tobytes(self, order='C'):
        return _to_host(self, 'tobytes()').tobytes(order)

    def __float__(self):
        return float(_to_host(self, 'float()'))

    def __int__(self):
        return int(_to_host(self, 'int()'))

    def __complex__(self):
        return complex(_to_host(self, 'complex()'))

    def __bool__(self):
        return bool(_to_host(self, 'bool()'))

    def __repr__(self):
        return repr(_to_host(self, 'repr()'))

    def __str__(self):
        return str(_to_host(self, 'str()'))

    def __format__(self, spec):
        return format(_to_host(self, 'format()'), spec)

    def __reduce__(self):
        return _rebuild, (numpy.array(_to_host(self, 'pickling')), self._dev)

    def dump(self, file):
        numpy.save(file, _to_host(self, 'dump()'), allow_pickle=True)

    def dumps(self):
        import pickle
        return pickle.dumps(self, -1)

    def tofile(self, fid, sep='', format='%s'):
        _to_host(self, 'tofile()').tofile(fid, sep, format)

    # -- attributes -----------------------------------------------------------------
    @property
    def shape(self):
        return self._a.shape

    @shape.setter
    def shape(self, value):
        self._a.shape = value

    dtype = property(lambda self: self._a.dtype)
    ndim = property(lambda self: self._a.ndim)
    size = property(lambda self: self._a.size)
    strides = property(lambda self: self._a.strides)
    itemsize = property(lambda self: self._a.itemsize)
    nbytes = property(lambda self: self._a.nbytes)
    flags = property(lambda self: _Flags(self._a.flags))
    data = property(lambda self: _MemoryPointer(self._a, self._dev))
    T = property(lambda self: _view(self._a.T, self._dev))
    mT = property(lambda self: _view(self._a.mT, self._dev))

    @property
    def base(self):
        return None if self._a.base is None else _view(self._a.base, self._dev)

    @property
    def device(self):
        from . import cuda
        return cuda.Device(self._dev)

    @property
    def real(self):
        return _view(self._a.real, self._dev)

    @real.setter
    def real(self, value):
        self._a.real = unwrap_arg(value)

    @property
    def imag(self):
        return _view(self._a.imag, self._dev)

    @imag.setter
    def imag(self, value):
        self._a.imag = unwrap_arg(value)

    def __len__(self):
        return len(self._a)

    def __iter__(self):
        if self._a.ndim == 0:
            raise TypeError('iteration over a 0-d array')
        return (self[i] for i in builtins.range(self._a.shape[0]))

    def __copy__(self):
        return self.copy()

    def __deepcopy__(self, memo):
        with _DeviceCtx(self._dev):
            return _new(self._a.copy(), self._dev)

    # -- indexing -------------------------------------------------------------------
    def __getitem__(self, key):
        _check_device(self)
        k = unwrap_index(key)
        r = self._a[k]
        if isinstance(r, numpy.generic):  # CuPy returns a 0-dim view
            kt = k if type(k) is tuple else (k,)
            r = self._a[kt + (Ellipsis,)] if Ellipsis not in kt else numpy.asarray(r)
        if isinstance(r, numpy.ndarray) and numpy.may_share_memory(r, self._a):
            return _view(r, self._dev)
        return _new(r, self._dev)

    def __setitem__(self, key, value):
        _check_device(self)
        if type(value) is ndarray:
            _check_device(value)
            value = value._a
        elif not (type(value) in _PY_SCALARS or isinstance(value, (numpy.generic,
                                                                    numpy.ndarray))):
            value = numpy.asarray(value)  # lists: sent to the device as CuPy does
        self._a[unwrap_index(key)] = value

    def _scatter(self, npf, slices, value):
        _check_device(self)
        v = value._a if type(value) is ndarray else value
        npf.at(self._a, unwrap_index(slices), v)

    def scatter_add(self, slices, value):
        self._scatter(numpy.add, slices, value)

    def scatter_max(self, slices, value):
        self._scatter(numpy.maximum, slices, value)

    def scatter_min(self, slices, value):
        self._scatter(numpy.minimum, slices, value)

    # -- shape and copies -----------------------------------------------------------
    def reshape(self, *shape, order='C'):
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = tuple(shape[0])
        r = self._a.reshape(shape, order=order)
        return _view(r, self._dev) if numpy.may_share_memory(r, self._a) else _new(r,
                                                                                  self._dev)

    def transpose(self, *axes):
        return _view(self._a.transpose(*axes), self._dev)

    swapaxes = _view_method('swapaxes')
    squeeze = _view_method('squeeze')
    diagonal = _view_method('diagonal')

    def view(self, *args, **kwargs):
        if args and args[0] is ndarray:
            return self
        return _view(self._a.view(*args, **kwargs), self._dev)

    def ravel(self, order='C'):
        r = self._a.ravel(order)
        return _view(r, self._dev) if numpy.may_share_memory(r, self._a) else _new(r,
                                                                                  self._dev)

    def astype(self, dtype, order='K', casting=None, subok=None, copy=True):
        kw = {} if casting is None else {'casting': casting}
        r = self._a.astype(dtype, order=order, copy=copy, **kw)
        return self if r is self._a else _new(r, self._dev)

    def copy(self, order='C'):
        # as CuPy: the copy is made on the current device (from another device too)
        return _new(self._a.copy(order))

    def fill(self, value):
        if type(value) is ndarray:
            value = value._a
        self._a.fill(value)

    def __matmul__(self, other):
        if _rop(self, other):
            return NotImplemented
        from . import _namespace
        return _namespace.matmul(self, other)

    def __rmatmul__(self, other):
        from . import _namespace
        return _namespace.matmul(other, self)

    def __neg__(self):
        return _UFUNCS['negative'](self)

    def __pos__(self):
        return _UFUNCS['positive'](self)

    def __abs__(self):
        return _UFUNCS['absolute'](self)

    def __invert__(self):
        return _UFUNCS['invert'](self)

    def __divmod__(self, other):
        return _UFUNCS['divmod'](self, other)


def _rebuild(a, dev):
    with _DeviceCtx(dev if dev < state.device_count else 0):
        return _new(numpy.array(a))


class _DeviceCtx:
    __slots__ = ('_dev', '_prev')

    def __init__(self, dev):
        self._dev = dev

    def __enter__(self):
        self._prev = current_device_id()
        set_current_device_id(self._dev)

    def __exit__(self, *args):
        set_current_device_id(self._prev)


for _name, _uf in (('add', 'add'), ('sub', 'subtract'), ('mul', 'multiply'),
                   ('truediv', 'true_divide'), ('floordiv', 'floor_divide'),
                   ('mod', 'remainder'), ('pow', 'power'), ('and', 'bitwise_and'),
                   ('or', 'bitwise_or'), ('xor', 'bitwise_xor'), ('lshift', 'left_shift'),
                   ('rshift', 'right_shift')):
    setattr(ndarray, '__{}__'.format(_name), _binop(_uf))
    setattr(ndarray, '__r{}__'.format(_name), _binop(_uf, reflected=True))
    setattr(ndarray, '__i{}__'.format(_name), _binop(_uf, inplace=True))
for _name, _uf in (('lt', 'less'), ('le', 'less_equal'), ('gt', 'greater'),
                   ('ge', 'greater_equal'), ('eq', 'equal'), ('ne', 'not_equal')):
    setattr(ndarray, '__{}__'.format(_name), _binop(_uf))

for _name in ('sum', 'prod', 'mean', 'var', 'std', 'max', 'min', 'argmax', 'argmin', 'all',
              'any', 'cumsum', 'cumprod', 'ptp', 'clip', 'dot', 'round', 'conj',
              'conjugate', 'nonzero', 'argsort', 'sort', 'partition', 'argpartition',
              'flatten', 'searchsorted', 'trace'):
    setattr(ndarray, _name, _method(_name))
for _name in _HOST_OK_METHODS - {'fill'}:
    setattr(ndarray, _name, _method(_name, host_ok=True))

ndarray.__module__ = 'cupy'
ndarray.__qualname__ = 'ndarray'
