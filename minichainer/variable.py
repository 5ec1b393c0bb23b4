"""Variables and graph nodes (`chainer.variable`).

A [`Variable`][minichainer.variable.Variable] is what users hold: an array, its gradient, a name.
The computational graph is made of [`VariableNode`][minichainer.variable.VariableNode] objects (one
per Variable, created on first need) and [`FunctionNode`][minichainer.function_node.FunctionNode]
objects.  A node keeps no array unless a function retained it for its backward, so a graph holds
only the arrays backward needs. Functions hold their output nodes through weak references, so
dropping the last output drops the whole graph by reference counting alone.

The graph's slots are the core's internal interface
---------------------------------------------------
`FunctionNode.apply` and the backward engine (`minichainer._backprop`) read and write the
fields of every Variable and VariableNode they meet, in the per-op hot path, where a
property would cost a Python call per read.  Those fields are therefore plain slots with
public names, each the storage behind the property of the same stem:

| slot | holds | the property (with its checks) |
|---|---|---|
| `Variable.array_slot` | the array (None while uninitialized) | `array`, `data` |
| `Variable.grad_var_slot` | the gradient Variable or None | `grad_var`, `grad` |
| `Variable.node_slot` | the VariableNode, None until one is needed | `node` |
| `Variable.requires_grad_slot` | whether backward computes its gradient | `requires_grad` |
| `VariableNode.variable_ref` | a weak reference to its Variable | `get_variable_or_none()` |
| `VariableNode.creator_node_slot` | the FunctionNode that made it, or None | `creator_node` |
| `VariableNode.rank_slot` | its creator's rank + 1 (0 for a leaf) | `rank` |
| `VariableNode.requires_grad_slot` | its Variable's `requires_grad` | `requires_grad` |
| `VariableNode.old_style_grad_generator` | the old-style Function whose backward made it | |

Writing a slot skips the property's checks and its bookkeeping (the node's shape and
dtype, the rank); only the core's own code does so.  Chainer's private names for these
fields (`_data`, `_grad_var`, `_node`, `_requires_grad`, `_creator_node`, `_rank`,
`_variable`, `_old_style_grad_generator`; Chainer's tests and some user code touch them)
are aliases: the same slot descriptors, bound under a second name, so either name costs
the same (`_node` is Chainer's property that makes the node on first access).
"""
import copy as _copy
import warnings
import weakref

import numpy

from minichainer import backend as _backend_module
from minichainer import initializers
from minichainer._operations import load as _load_operations
from minichainer._operations import operations as _ops
from minichainer.backend import get_device
from minichainer.backends import cuda as _cuda
from minichainer.backends._cpu import CpuDevice

# What the modules above the core provide (the backward engine, the method forms of
# functions, memory layouts) is called through minichainer._operations, where those modules
# register it at their import: this module imports none of them.
_ndarray = numpy.ndarray
_weakref = weakref.ref
_cuda_state = _cuda.cupy_state  # .ndarray: cupy.ndarray while CuPy is in use, else None


def _is_cupy_array(data):
    """True for a CuPy array (resolving CuPy once if it was imported): the slow path of
    the NumPy checks below."""
    cupy_ndarray = _cuda_state.ndarray or _cuda.maybe_resolve()
    return cupy_ndarray is not None and isinstance(data, cupy_ndarray)


def _array_kind(data):
    # 'numpy', ('cupy', device id) or the type, for comparing where two arrays live
    if isinstance(data, _ndarray):
        return 'numpy'
    if _is_cupy_array(data):
        return ('cupy', data.device.id)
    return type(data)


def _raise_bad_data(data, where='Variable'):
    if isinstance(data, numpy.ndarray) or _is_cupy_array(data):
        raise TypeError('{}: data must be a numeric numpy.ndarray, got an array of dtype {} '
                        '(object arrays are not supported)'.format(where, data.dtype))
    raise TypeError('{}: data must be a numpy.ndarray or None, got {} ({!r}); wrap Python '
                    'scalars and lists with numpy.asarray(..., dtype=numpy.float32)'.format(
                        where, type(data).__name__, data if numpy.isscalar(data) or
                        isinstance(data, (list, tuple)) and len(data) < 8 else '...'))


def check_grad_type(func, x, is_node_x, gx):
    """Check that gradient `gx` matches `x` in array type, dtype and shape."""
    if gx is None:
        return
    x_data = x.array_slot if not is_node_x else x.data
    if x_data is None:
        if is_node_x:
            shape, dtype = x.shape, x.dtype
        else:
            return
    else:
        shape, dtype = x_data.shape, x_data.dtype
    if dtype is None:
        return
    if (type(gx) is not _ndarray or (x_data is not None and type(x_data) is not _ndarray)) \
            and _grad_kind_mismatch(gx, x_data):
        msg = 'Type of data and grad mismatch\ngrad: {} != data: {}'.format(
            _where(gx), _where(x_data) if x_data is not None else numpy.ndarray)
        error = TypeError
    elif gx.dtype != dtype:
        msg = 'Dtype of data and grad mismatch\ngrad: {} != data: {}'.format(gx.dtype, dtype)
        error = TypeError
    elif gx.shape != shape:
        msg = 'Shape of data and grad mismatch\ngrad: {} != data: {}'.format(gx.shape, shape)
        error = ValueError
    else:
        return
    if func is not None:
        msg = 'Function `{}` ({}) has a bug: its backward returned a wrong gradient.\n{}'.format(
            type(func).__name__, func.label, msg)
    raise error(msg)


_check_grad_type = check_grad_type  # Chainer's name


def _grad_kind_mismatch(gx, x_data):
    # slow path (some array is not a NumPy array): the kinds and GPUs must agree
    gk = _array_kind(gx)
    if x_data is None:  # a node without data: any array kind may come
        return not (gk == 'numpy' or type(gk) is tuple)
    return gk != _array_kind(x_data)


def _where(data):
    kind = _array_kind(data)
    if kind == 'numpy':
        return "{} on '@numpy'".format(numpy.ndarray)
    if type(kind) is tuple:
        return "{} on '@cupy:{}'".format(type(data), kind[1])
    return str(type(data))


class _UnsupportedOperatorError(TypeError, NotImplementedError):
    """Comparison or truth value of a Variable: a TypeError as in Chainer (also a
    NotImplementedError, which minichainer raised before)."""


def _array_label(shape, dtype):
    if dtype is None:
        return 'None'
    if shape == ():
        return str(dtype)
    return '({}), {}'.format(', '.join(map(str, shape)), dtype)


class VariableNode:
    """Node of the computational graph that stands for a
    [`Variable`][minichainer.variable.Variable].

    It holds the variable weakly, its shape and dtype, its creator function node and, only
    when a function retained it, the data array.
    """

    # the slots apply and the backward engine use are listed in the module docstring
    __slots__ = ('variable_ref', 'name', 'requires_grad_slot', 'creator_node_slot', 'data',
                 'shape', 'dtype', 'rank_slot', 'old_style_grad_generator', '__weakref__')

    def __init__(self, variable, name, **kwargs):
        if kwargs:
            if 'grad' in kwargs:
                raise ValueError('VariableNode: the grad argument is not supported anymore; '
                                 'use the grad of the variable instead')
            raise TypeError('VariableNode got unexpected keyword argument(s): {}'.format(
                ', '.join(sorted(kwargs))))
        self.variable_ref = weakref.ref(variable)
        self.name = name
        self.requires_grad_slot = variable.requires_grad_slot
        self.creator_node_slot = None
        self.data = None
        self.rank_slot = 0
        self.old_style_grad_generator = None
        self._update_data_info(variable.array_slot)

    @property
    def creator(self):
        """The function that created this node (an old-style Function when it was one)."""
        node = self.creator_node_slot
        if node is None:
            return None
        func = getattr(node, '_function', None)
        if func is None:
            ref = getattr(node, '_weak_function', None)
            func = None if ref is None else ref()
        return node if func is None else func

    @creator.setter
    def creator(self, func):
        self.set_creator(func)

    @property
    def creator_node(self):
        """The [`FunctionNode`][minichainer.function_node.FunctionNode] that created this node,
        or None."""
        return self.creator_node_slot

    @creator_node.setter
    def creator_node(self, func):
        self.set_creator_node(func)

    @property
    def grad(self):
        var = self.variable_ref()
        return None if var is None else var.grad

    @property
    def grad_var(self):
        var = self.variable_ref()
        return None if var is None else var.grad_var_slot

    @property
    def label(self):
        return _array_label(self.shape, self.dtype)

    @property
    def rank(self):
        return self.rank_slot

    @property
    def requires_grad(self):
        return self.requires_grad_slot

    def get_variable(self):
        """Return the Variable of this node, or a new one wrapping the retained data."""
        var = self.variable_ref()
        if var is not None:
            return var
        return Variable._from_node(self)

    def get_variable_or_none(self):
        return self.variable_ref()

    def set_creator(self, creator):
        """Set the creator (a FunctionNode or an old-style Function)."""
        self.set_creator_node(getattr(creator, 'node', creator))

    def set_creator_node(self, creator_node):
        self.creator_node_slot = creator_node
        if creator_node is not None:
            self.rank_slot = creator_node.rank + 1

    def unchain(self):
        """Forget the creator, cutting the graph behind this node."""
        self.creator_node_slot = None

    def retain_data(self):
        """Keep the variable's current array in this node."""
        var = self.variable_ref()
        if var is None:
            raise RuntimeError('Cannot retain the data of a variable node whose variable '
                               'has been released')
        self.data = var.array_slot

    def _update_data_info(self, data):
        if data is None:
            self.shape = None
            self.dtype = None
        else:
            self.shape = data.shape
            self.dtype = data.dtype
        if self.data is not None:
            self.data = data

    def check_old_style_gradient(self):
        """Raise if this node's gradient came from an old-style Function (which cannot be
        differentiated twice); the backward engine calls it."""
        if self.old_style_grad_generator is not None:
            raise RuntimeError(
                'cannot twice-differentiate an old style Function "{}"'.format(
                    self.old_style_grad_generator))

    _check_old_style_gradient = check_old_style_gradient  # Chainer's name


class Variable:
    """Array with a structure to keep track of computation.

    Args:
        data (numpy.ndarray or None): the array.
        name (str): name of the variable.
        grad (numpy.ndarray): initial gradient.
        requires_grad (bool): whether backward computes a gradient for it.
    """

    # the slots apply and the backward engine use are listed in the module docstring
    __slots__ = ('array_slot', 'grad_var_slot', 'node_slot', 'requires_grad_slot', '_name',
                 '__dict__', '__weakref__')

    __array_priority__ = 200
    _layout = None  # memory layout (minichainer.memory_layouts); None is the standard one
    _loss_scale = None  # Chainer's name; read and written through grad_loss_scale below
    _has_chainerx_array = False  # Chainer's flag; minichainer has no ChainerX arrays
    _device = None  # a non-CPU (user-defined, NumPy-based) device given to to_device()

    @staticmethod
    def _init_unchecked(data=None, device=None, name=None, grad=None, grad_valid=True,
                        requires_grad=True, is_chainerx_array=None, node=None,
                        layout=None):
        # Chainer's fast constructor (no validation of ``data``).
        var = new_variable(data, requires_grad)
        var.node_slot = node
        var._name = name
        if grad is not None:
            var.grad_var_slot = Variable(grad)
        if layout is not None:
            var._set_layout(layout)
        return var

    def __init__(self, data=None, *, name=None, grad=None, requires_grad=True, layout=None):
        if data is not None and (type(data) is not _ndarray or data.dtype.kind == 'O'):
            if not isinstance(data, _ndarray) or data.dtype.kind == 'O':
                if not _is_cupy_array(data) or data.dtype.kind == 'O':
                    _raise_bad_data(data)
        self.array_slot = data
        self.requires_grad_slot = requires_grad
        self.node_slot = None
        self._name = name
        self.grad_var_slot = None
        if layout is not None:
            self._set_layout(layout)
        if grad is not None:
            self.grad = grad

    def _set_layout(self, layout):
        set_array_layout(self, layout)

    @staticmethod
    def _from_node(node):
        # A new Variable for a node whose variable was released (with its retained data).
        var = new_variable(node.data, node.requires_grad_slot)
        var.node_slot = node
        var._name = node.name
        return var

    # -- graph ---------------------------------------------------------------------------
    @property
    def node(self):
        """The [`VariableNode`][minichainer.variable.VariableNode] of this variable."""
        node = self.node_slot
        if node is None:
            node = self.node_slot = VariableNode(self, self._name)
        return node

    def _set_node(self, node):
        self.node_slot = node

    # Chainer's attribute: the node, which Chainer creates with the variable (here on first
    # access).  Internally the slot ``node_slot`` holds it (None until needed).
    _node = property(node.fget, _set_node)
    del _set_node

    def set_creator(self, gen_func):
        self.node.set_creator(gen_func)

    def set_creator_node(self, fnode):
        self.node.set_creator_node(fnode)

    @property
    def creator(self):
        """The function that created this variable (None for a leaf)."""
        node = self.node_slot
        return None if node is None else node.creator

    creator = creator.setter(set_creator)

    @property
    def creator_node(self):
        """The [`FunctionNode`][minichainer.function_node.FunctionNode] that created this
        variable (None for a leaf)."""
        node = self.node_slot
        return None if node is None else node.creator_node_slot

    creator_node = creator_node.setter(set_creator_node)

    @property
    def rank(self):
        node = self.node_slot
        return 0 if node is None else node.rank_slot

    @property
    def requires_grad(self):
        return self.requires_grad_slot

    @property
    def name(self):
        return self._name

    @name.setter
    def name(self, name):
        self._name = name
        if self.node_slot is not None:
            self.node_slot.name = name

    @property
    def label(self):
        """Short text describing shape and dtype, used in graph dumps."""
        data = self.array_slot
        if data is None:
            return 'None'
        return _array_label(data.shape, data.dtype)

    # -- data ----------------------------------------------------------------------------
    @property
    def array(self):
        """The data array."""
        return self.array_slot

    @array.setter
    def array(self, data):
        if data is not None and (not isinstance(data, _ndarray) or data.dtype.kind == 'O'):
            if not _is_cupy_array(data) or data.dtype.kind == 'O':
                _raise_bad_data(data, 'Variable.array')
        if '_device' in self.__dict__ and data is not None:
            self._follow_data_device(data)
        self.array_slot = data
        if self.node_slot is not None:
            self.node_slot._update_data_info(data)
        if '_data_peers' in self.__dict__:
            self._set_data_of_peers(data)

    data = array

    @property
    def grad(self):
        """The gradient array (None when there is none)."""
        gv = self.grad_var_slot
        return None if gv is None else gv.array_slot

    @grad.setter
    def grad(self, g):
        if g is not None:
            check_grad_type(None, self, False, g)
            self.grad_var_slot = Variable(g)
        else:
            self.grad_var_slot = None

    @property
    def grad_var(self):
        """The gradient as a Variable (None when there is none)."""
        return self.grad_var_slot

    @grad_var.setter
    def grad_var(self, g):
        if g is not None:
            check_grad_type(None, self, False, g.array_slot)
        self.grad_var_slot = g

    @property
    def raw_array(self):
        """The data array as stored (its shape is not the semantic one in a non-standard
        memory layout)."""
        return self.array_slot

    @property
    def layout(self):
        """The memory layout of the array (None: the standard layout)."""
        return self._layout

    def as_layout(self, layout):
        """This variable in memory layout `layout` (differentiable; self if it is)."""
        if self._layout == layout:
            return self
        y, = _ops.as_layout_node(layout).apply((self,))
        return y

    @property
    def chx_array(self):
        raise ValueError('chx_array is not available for Variable with non-ChainerX array '
                         '(minichainer has no ChainerX backend)')

    @property
    def shape(self):
        if self._layout is None:
            return self.array_slot.shape
        return _ops.transpose_shape(self.array_slot.shape, self._layout, None)

    @property
    def ndim(self):
        return self.array_slot.ndim

    @property
    def size(self):
        return self.array_slot.size

    @property
    def dtype(self):
        return self.array_slot.dtype

    @property
    def xp(self):
        """The array module of the data (`numpy`, or `cupy` for data on a GPU)."""
        device = self._device
        if device is not None:
            return device.xp
        data = self.array_slot
        if data is None or type(data) is _ndarray:
            return numpy
        return _backend_module.get_array_module(data)

    @property
    def device(self):
        """The device the data lives on: the CPU, the GPU of its CuPy array, or the device
        given to [`to_device`][minichainer.variable.Variable.to_device] (a `GpuDevice`,
        or a user-defined NumPy-based `Device`)."""
        device = self._device
        if device is not None:
            return device
        data = self.array_slot
        if data is None or isinstance(data, _ndarray):
            return CpuDevice()
        return _backend_module.get_device_from_array(data)

    def _follow_data_device(self, data):
        # data assigned to a variable that was sent to a GPU: the device follows the data
        device = self.__dict__['_device']
        if isinstance(device, _cuda.GpuDevice) and not device.is_array_supported(data):
            new = _backend_module.get_device_from_array(data)
            if isinstance(new, CpuDevice):
                del self.__dict__['_device']
            else:
                self.__dict__['_device'] = new

    @property
    def T(self):
        """Transposition of the variable (differentiable)."""
        return _ops.transpose(self)

    def __len__(self):
        return len(self.array_slot)

    def item(self):
        """The single element of a size-1 variable as a Python scalar."""
        if self.array_slot.size != 1:
            raise ValueError('Variable.item: can only convert a variable of size 1 to a '
                             'Python scalar, got shape {}'.format(self.array_slot.shape))
        return self.array_slot.item()

    def __repr__(self):
        return _variable_repr(self, ', ', _repr_body)

    def __str__(self):
        return _variable_repr(self, ' ', _str_body)

    def summary(self):
        if self.name:
            return '<variable {}>'.format(self.name)
        return '<variable at 0x{:x}>'.format(id(self))

    def debug_print(self):
        """Summary of the data and gradient statistics, as Chainer prints it."""
        data = self.array_slot
        lines = [self.summary(),
                 '- device: {}'.format('None' if data is None else 'CPU'),
                 '- backend: {}'.format(None if data is None else type(data)),
                 '- shape: {}'.format(None if data is None else data.shape),
                 '- dtype: {}'.format(None if data is None else data.dtype)]
        stats = 'mean={0:.8f}, std={1:.8f}'
        if data is None:
            lines.append('- statistics: None')
        else:
            lines.append('- statistics: ' + stats.format(float(data.mean()), float(data.std())))
        grad = self.grad
        if grad is None:
            lines.append('- grad: None')
        elif not grad.any():
            lines.append('- grad: 0')
        else:
            lines.append('- grad: ' + stats.format(float(grad.mean()), float(grad.std())))
        return '\n'.join(lines)

    def __copy__(self):
        # As Chainer: a new Python object with a new (leaf) node, sharing the data holder
        # with the original, so a later ``x.array = a`` or ``initialize()`` on either one
        # is seen by both (``Link.copy()`` relies on it).
        new = Variable.__new__(Variable)
        self._copy_to(new)
        return new

    def _copy_to(self, new):
        new.array_slot = self.array_slot
        new.grad_var_slot = self.grad_var_slot
        new.node_slot = None
        new.requires_grad_slot = self.requires_grad_slot
        new._name = self._name
        d = self.__dict__
        if d:
            new.__dict__.update(d)
        peers = d.get('_data_peers')
        if peers is None:
            peers = d['_data_peers'] = [weakref.ref(self)]
        else:
            peers[:] = [ref for ref in peers if ref() is not None]
        peers.append(weakref.ref(new))
        new.__dict__['_data_peers'] = peers
        return new

    def _set_data_of_peers(self, data):
        # Give ``data`` to every copy sharing this variable's data holder (see __copy__).
        for ref in self.__dict__['_data_peers']:
            other = ref()
            if other is not None and other is not self:
                other.array_slot = data
                if other.node_slot is not None:
                    other.node_slot._update_data_info(data)

    def __deepcopy__(self, memo):
        new = type(self).__new__(type(self))
        memo[id(self)] = new
        new.array_slot = _copy.deepcopy(self.array_slot, memo)
        new.grad_var_slot = _copy.deepcopy(self.grad_var_slot, memo)
        new.node_slot = None
        new.requires_grad_slot = self.requires_grad_slot
        new._name = self._name
        for key, value in self.__dict__.items():
            if key != '_data_peers':  # a deep copy owns its data
                setattr(new, key, _copy.deepcopy(value, memo))
        return new

    def __reduce__(self):
        return _rebuild_variable, (self.array_slot, self._name, self.grad, self.requires_grad_slot)

    # -- gradient management -------------------------------------------------------------
    def cleargrad(self):
        """Set the gradient to None."""
        self.grad_var_slot = None

    def zerograd(self):
        """Fill the gradient with zeros (deprecated in Chainer; use cleargrad)."""
        warnings.warn('Variable.zerograd is deprecated. Use Variable.cleargrad instead.',
                      DeprecationWarning)
        if self.array_slot is None:
            return
        gv = self.grad_var_slot
        if gv is None:
            self.grad_var_slot = Variable(numpy.zeros_like(self.array_slot))
        else:
            gv.unchain()
            gv.array_slot.fill(0)

    def copydata(self, var):
        """Copy the data array of `var` into this variable."""
        src = var.array_slot
        dst = self.array_slot
        if src is None:
            if dst is None:
                return
            var.initialize(self.shape)
            src = var.array_slot
        elif dst is None:
            self.initialize(src.shape)
            dst = self.array_slot
        if type(dst) is _ndarray and type(src) is _ndarray:
            numpy.copyto(dst, src)
        else:
            _backend_module.copyto(dst, src)  # across devices

    def addgrad(self, var):
        """Add the gradient of `var` to the gradient of this variable."""
        src = var.grad
        if src is None:
            return
        if self.array_slot is None:
            self.initialize(var.shape)
        dst = self.grad
        data = self.array_slot
        if type(src) is not _ndarray or (dst is not None and type(dst) is not _ndarray) or (
                dst is None and data is not None and type(data) is not _ndarray):
            # on other devices: the gradient goes to this variable's device (Chainer)
            src = self.device.send(src)
            if dst is None:
                self.grad_var_slot = Variable(src.copy() if src is var.grad else src)
                return
            with _backend_module.using_device(self.device):
                dst += src
            return
        if dst is None:
            self.grad_var_slot = Variable(src.copy())
        else:
            dst += src

    def initialize(self, shape):
        """Initialize an uninitialized variable (meaningful for Parameters)."""
        raise NotImplementedError('only Parameter supports lazy initialization')

    def to_cpu(self):
        """Move data and gradient to the CPU (NumPy arrays already are there)."""
        self._to_device(CpuDevice())
        return self

    def to_gpu(self, device=None):
        """Move data and gradient to a GPU: `device` an id (None: the current one) or a
        `cupy.cuda.Device`. Raises `RuntimeError` where CuPy cannot be used."""
        _cuda.check_cuda_available()
        cuda_device = _cuda.get_device_or_current(device)
        self._to_device(_cuda.GpuDevice(cuda_device))
        return self

    def to_intel64(self):
        return self

    def to_chx(self):
        raise RuntimeError('Variable.to_chx: ChainerX is not available in minichainer')

    def from_chx(self):
        return self

    def to_device(self, device):
        """Move to `device`: the CPU, or a user-defined NumPy-based
        `Device`, which then receives the arrays through its
        `send` and is what [`device`][minichainer.variable.Variable.device] reports (as in Chainer),
        or a GPU (`'@cupy:N'`, where CuPy is available). Unavailable GPU, iDeep and ChainerX
        specs raise (see [`minichainer.backend.get_device`][minichainer.backend.get_device])."""
        self._to_device(get_device(device))
        return self

    def _to_device(self, device):
        d = self.__dict__
        arr = self.array_slot
        if isinstance(device, CpuDevice):
            if d.get('_device') is None and (arr is None or type(arr) is _ndarray) and (
                    self.grad_var_slot is None or type(self.grad_var_slot.array_slot) is _ndarray):
                return  # already on the CPU: nothing moves
            d.pop('_device', None)
        else:
            d['_device'] = device
        if arr is None:
            gv = self.grad_var_slot
            if gv is not None:
                gv._to_device(device)
            return
        if isinstance(device, CpuDevice) and type(arr) is _ndarray:
            gv = self.grad_var_slot
            if gv is not None:
                gv._to_device(device)
            return  # NumPy arrays already are CPU arrays
        self.array_slot = device.send(arr)
        if self.node_slot is not None:
            self.node_slot._update_data_info(self.array_slot)
        gv = self.grad_var_slot
        if gv is not None:
            gv._to_device(device)

    # -- graph surgery -------------------------------------------------------------------
    def unchain(self):
        """Delete the reference to the creator, making this variable a root."""
        if self.node_slot is not None:
            self.node_slot.unchain()

    def unchain_backward(self):
        """Delete references between variables and functions backward from here."""
        node = self.node_slot
        if node is None or node.creator_node_slot is None:
            return
        stack = [node.creator_node_slot]
        seen = {id(node.creator_node_slot)}
        while stack:
            func = stack.pop()
            for x in func.inputs or ():
                creator = x.creator_node_slot
                if creator is not None and id(creator) not in seen:
                    seen.add(id(creator))
                    stack.append(creator)
            func.unchain()

    def retain_data(self):
        self.node.data = self.array_slot

    # -- backward ------------------------------------------------------------------------
    def backward(self, retain_grad=False, enable_double_backprop=False, loss_scale=None):
        """Run backpropagation from this variable.

        Args:
            retain_grad (bool): keep gradients of intermediate variables.
            enable_double_backprop (bool): build the graph of the backward computation
                so that gradients can be differentiated again.
            loss_scale (float): scale the initial gradient (loss scaling).
        """
        data = self.array_slot
        if data is not None and type(data) is not _ndarray and _is_cupy_array(data):
            # the loss's GPU is made current (as Chainer does), for the arrays backward makes
            with _backend_module.using_device(self.device):
                _ops.backward(self, retain_grad, enable_double_backprop, loss_scale)
            return
        _ops.backward(self, retain_grad, enable_double_backprop, loss_scale)

    # -- shape operations ----------------------------------------------------------------
    def reshape(self, *shape):
        """Reshape (differentiable). See
        [`minichainer.functions.reshape`][minichainer.functions.array.reshape.reshape]."""
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = shape[0]
        return _ops.reshape(self, shape)

    def transpose(self, *axes):
        """Permute axes (differentiable). See
        [`minichainer.functions.transpose`][minichainer.functions.array.transpose.transpose]."""
        if not axes:
            axes = None
        elif len(axes) == 1 and (isinstance(axes[0], (tuple, list)) or axes[0] is None):
            axes = axes[0]
        return _ops.transpose(self, axes)

    def mean(self, axis=None, *, weights=None, keepdims=False):
        """Weighted average over `axis` (differentiable). See
        [`minichainer.functions.average`][minichainer.functions.math.average.average]."""
        return _ops.average(self, axis, weights, keepdims)

    def __getitem__(self, slices):
        return _ops.get_item(self, slices)

    # Comparisons are not differentiable and are not supported, as in Chainer.
    def _no_compare(self, other):
        raise _UnsupportedOperatorError(
            'Variables do not support comparison operators (they are not differentiable); '
            'compare their arrays instead, e.g. x.array < y.array')

    __lt__ = __le__ = __eq__ = __ne__ = __gt__ = __ge__ = _no_compare

    # As in Chainer, Variables are unhashable (``__eq__`` is not an identity test); key
    # dicts and sets on ``id(x)`` or on ``x.node`` instead.
    __hash__ = None

    def __bool__(self):
        raise _UnsupportedOperatorError(
            'Variables cannot be evaluated as Python bool; use its array, e.g. '
            'bool(x.array)')

    def __pos__(self):
        return self



_new_variable = Variable.__new__
_new_node = VariableNode.__new__

# Chainer's private names for the graph's slots (see the module docstring): the same
# descriptors under a second name, so reading or writing either is one slot access.
# (`_vnode` is minichainer's earlier name for the node slot.)
_SLOT_ALIASES = (
    (Variable, (('_data', 'array_slot'), ('_grad_var', 'grad_var_slot'),
                ('_vnode', 'node_slot'), ('_requires_grad', 'requires_grad_slot'))),
    (VariableNode, (('_variable', 'variable_ref'), ('_requires_grad', 'requires_grad_slot'),
                    ('_creator_node', 'creator_node_slot'), ('_rank', 'rank_slot'),
                    ('_old_style_grad_generator', 'old_style_grad_generator'))),
)
for _cls, _aliases in _SLOT_ALIASES:
    _descriptors = vars(_cls)
    for _alias, _slot in _aliases:
        setattr(_cls, _alias, _descriptors[_slot])
del _cls, _aliases, _descriptors, _alias, _slot


def grad_loss_scale(var):
    """The loss scale of the backward pass that made `var`'s gradient (None: unscaled).

    The internal interface between the backward engine, which records it on the leaves
    it reaches (`set_grad_loss_scale`), and the update rules and optimizer hooks, which
    divide it out.  It is kept in Chainer's attribute `_loss_scale`, which Chainer's
    own tests set by hand.
    """
    return getattr(var, '_loss_scale', None)


def set_grad_loss_scale(var, loss_scale):
    """Record on `var` the loss scale its gradient was computed with (see
    `grad_loss_scale`)."""
    var._loss_scale = loss_scale


def set_array_layout(var, layout):
    """Record that `var`'s array is in memory layout `layout` (None: the standard one),
    as the layout-aware `FunctionNode.apply` does for its outputs and a link for a
    parameter it keeps channel-last.  A non-standard layout switches `FunctionNode.apply`
    to its layout-aware variant (minichainer.memory_layouts) if it is not yet."""
    var._layout = layout
    if layout is not None:
        _ops.enable_memory_layouts()


def new_variable(data, requires_grad=False, creator=None):
    """A Variable holding `data` as given, without validation: the one fast factory.

    For arrays that come out of a function (or its backward).  With `creator` (a
    FunctionNode whose `rank` is set) the Variable is that function's output in the
    graph, with a VariableNode of rank `creator.rank + 1`; without it the Variable has no
    node until one is needed.  It fills the slots of both by hand (a constructor call
    per output would cost the op overhead); tests/test_architecture.py checks every slot
    against `Variable(...)` and `VariableNode(...)`, so a new slot cannot be missed.
    """
    var = _new_variable(Variable)
    var.array_slot = data
    var.requires_grad_slot = requires_grad
    var._name = None
    var.grad_var_slot = None
    if creator is None:
        var.node_slot = None
        return var
    node = _new_node(VariableNode)
    node.variable_ref = _weakref(var)
    node.name = None
    node.requires_grad_slot = requires_grad
    node.creator_node_slot = creator
    node.data = None
    node.shape = data.shape
    node.dtype = data.dtype
    node.rank_slot = creator.rank + 1
    node.old_style_grad_generator = None
    var.node_slot = node
    return var


def _rebuild_variable(data, name, grad, requires_grad):
    return Variable(data, name=name, grad=grad, requires_grad=requires_grad)


def _repr_body(arr, prefix):
    if arr.size > 0 or arr.shape == (0,):
        return numpy.array2string(arr, separator=', ', prefix=prefix + '(')
    return '[], shape={!r}'.format(arr.shape)


def _str_body(arr, prefix):
    return numpy.array2string(arr, separator=' ', prefix=prefix + '(')


def _variable_repr(var, sep, body):
    prefix = 'variable ' + var.name if var.name else 'variable'
    arr = var.array_slot
    if arr is not None and type(arr) is not _ndarray:
        arr = CpuDevice().send(arr)  # printing a GPU array: one host copy
    text = 'None' if arr is None else body(arr, prefix)
    return '{}({})'.format(prefix, text)


class Parameter(Variable):
    """A Variable that is a model parameter, optionally initialized lazily.

    `Parameter(initializer=None, shape=None, name=None)`: `initializer` may be an
    Initializer, a scalar (a constant), an array (copied when `shape` is given, used as is
    otherwise) or None (NaN, to be filled later).  Without a shape the parameter stays
    uninitialized until [`initialize`][minichainer.variable.Parameter.initialize] is called (for
    example by a link on its first forward pass).
    """

    initializer = None
    _grad_initializer = None
    _initial_device = None
    # As in Chainer, the gradient of a parameter created uninitialized cannot be read
    # until it is set, cleared (cleargrad/zerograd) or the parameter is initialized;
    # an instance attribute False marks that state, the class attribute covers the rest.
    _grad_valid = True

    def __init__(self, initializer=None, shape=None, name=None, *, layout=None):
        if initializer is None:
            initializer = initializers.NaN()
        elif numpy.isscalar(initializer):
            initializer = initializers.Constant(initializer)
        if shape is None:
            if isinstance(initializer, numpy.ndarray) or _is_cupy_array(initializer):
                super().__init__(initializer, name=name)
            else:
                super().__init__(name=name)
                dtype = getattr(initializer, 'dtype', None)
                self._grad_initializer = initializers.NaN(dtype)
                self._grad_valid = False
        else:
            if isinstance(initializer, numpy.ndarray) or _is_cupy_array(initializer):
                initializer = initializers.Constant(initializer)
            data = _generate_array(initializer, shape)
            super().__init__(data, name=name, grad=numpy.full_like(data, numpy.nan))
        self.initializer = initializer
        self.update_rule = None
        if layout is not None:
            # As in Chainer, an array given here is taken as stored (raw); initialize()
            # generates the semantic shape and stores it in ``layout``.
            self._set_layout(layout)

    def __copy__(self):
        new = Parameter.__new__(Parameter)
        self._copy_to(new)
        return new

    def __reduce__(self):
        return _rebuild_parameter, (self.array_slot, self._name, self._grad, self.initializer,
                                    self.update_rule, self._grad_valid)

    def __deepcopy__(self, memo):
        new = Variable.__deepcopy__(self, memo)
        _reset_grad_initializer(new)
        return new

    @property
    def grad(self):
        """The gradient array (None when there is none).

        Raises:
            RuntimeError: the parameter was created uninitialized and its gradient has
                been neither set nor cleared (`cleargrad`/`zerograd`) nor created by
                [`initialize`][minichainer.variable.Parameter.initialize] yet (as in Chainer).
        """
        if not self._grad_valid:
            raise RuntimeError(
                'Cannot retrieve Variable.grad. Either it must be set manually or '
                'Variable.cleargrad() must be called beforehand.')
        gv = self.grad_var_slot
        return None if gv is None else gv.array_slot

    @grad.setter
    def grad(self, g):
        Variable.grad.fset(self, g)
        if not self._grad_valid:
            del self._grad_valid

    @property
    def _grad(self):
        # Chainer's internal name of the gradient array of a parameter (never raises)
        gv = self.grad_var_slot
        return None if gv is None else gv.array_slot

    @property
    def is_initialized(self):
        return self.array_slot is not None

    @property
    def dtype(self):
        data = self.array_slot
        if data is not None:
            return data.dtype
        initializer = self.initializer
        if hasattr(initializer, 'dtype'):
            # As in Chainer, an initializer without an explicit dtype (None) reads as
            # float64 here, although initialize() will use the configured default dtype.
            return numpy.dtype(initializer.dtype)
        raise RuntimeError("Dtype of the parameter is not determined yet because it's "
                           'uninitialized and dtype was not explicitly given.')

    def to_cpu(self):
        return self.to_device('@numpy')

    def to_device(self, device):
        """As [`Variable.to_device`][minichainer.variable.Variable.to_device]; an uninitialized
        parameter records the device, generates its arrays there in
        [`initialize`][minichainer.variable.Parameter.initialize], and stops sharing its pending
        data with copies left on another device (as in Chainer)."""
        device = get_device(device)
        if self.array_slot is None and self.device != device:
            peers = self.__dict__.pop('_data_peers', None)
            if peers is not None:
                peers[:] = [ref for ref in peers if ref() not in (None, self)]
        self._to_device(device)
        return self

    def cleargrad(self):
        self.grad_var_slot = None
        if self.array_slot is None:
            self._grad_initializer = None
            if not self._grad_valid:
                del self._grad_valid

    def zerograd(self):
        if self.array_slot is None:
            warnings.warn('Variable.zerograd is deprecated. Use Variable.cleargrad instead.',
                          DeprecationWarning)
            self._grad_initializer = initializers.Zero(getattr(self.initializer, 'dtype', None))
            if not self._grad_valid:
                del self._grad_valid
            return
        super().zerograd()

    def initialize(self, shape):
        """Create the data (and gradient) arrays of the given shape with the initializer
        (drawn on the GPU for a parameter sent to one)."""
        device = self._device
        on_gpu = isinstance(device, _cuda.GpuDevice)
        gen_device = device if on_gpu else None
        data = _generate_array(self.initializer, shape, gen_device)
        grad = None
        if self._grad_initializer is not None:
            grad = _generate_array(self._grad_initializer, shape, gen_device)
        if self._layout is not None:
            transpose_array = _ops.transpose_array
            data = transpose_array(data, None, self._layout)
            if grad is not None:
                grad = transpose_array(grad, None, self._layout)
        if device is not None and not on_gpu:  # a user-defined device given beforehand
            data = device.send(data)
            if grad is not None:
                grad = device.send(grad)
        self.array_slot = data
        if self.node_slot is not None:
            self.node_slot._update_data_info(data)
        self.grad_var_slot = None if grad is None else Variable(grad)
        if not self._grad_valid:
            del self._grad_valid
        if '_data_peers' in self.__dict__:
            self._set_data_of_peers(data)  # copies (Link.copy) are initialized together

    def update(self):
        """Update the data with the attached update rule (no-op without one)."""
        if self.update_rule is not None:
            self.update_rule.update(self)


def _generate_array(initializer, shape, device=None):
    if device is None:
        return initializers.generate_array(initializer, shape, numpy)
    return initializers.generate_array(initializer, shape, device.xp,
                                                   device=device)


def _rebuild_parameter(data, name, grad, initializer, update_rule, grad_valid=True):
    param = Parameter(initializer if data is None else data, name=name)
    if data is not None:
        param.initializer = initializer
    if grad is not None:
        param.grad_var_slot = Variable(grad)
    if grad_valid:
        param.__dict__.pop('_grad_valid', None)
    else:
        param._grad_valid = False
    param.update_rule = update_rule
    _reset_grad_initializer(param)
    return param


def _reset_grad_initializer(param):
    # As Chainer, whose copies and unpickled parameters are rebuilt from their initializer:
    # a later initialize() gives a NaN-filled gradient unless the initializer is an array.
    initializer = param.initializer
    if isinstance(initializer, numpy.ndarray) or _is_cupy_array(initializer):
        param.__dict__.pop('_grad_initializer', None)
    else:
        dtype = getattr(initializer, 'dtype', None)
        param._grad_initializer = initializers.NaN(dtype)


def as_variable(obj):
    """Return `obj` if it is a Variable, else wrap the array in one (no gradient)."""
    if isinstance(obj, Variable):
        return obj
    return Variable(obj, requires_grad=False)


def as_array(obj):
    """Return the array of a Variable, or `obj` itself if it is an array."""
    if isinstance(obj, Variable):
        return obj.array_slot
    return obj


_OPERATORS = ('__neg__', '__abs__', '__add__', '__radd__', '__iadd__', '__sub__', '__isub__',
              '__rsub__', '__mul__', '__imul__', '__rmul__', '__truediv__', '__itruediv__',
              '__rtruediv__', '__floordiv__', '__ifloordiv__', '__rfloordiv__', '__pow__',
              '__ipow__', '__rpow__', '__matmul__', '__imatmul__', '__rmatmul__')


def _lazy_operator(name):
    # Stand-ins until minichainer.functions.math.basic_math is imported: importing it
    # installs the real operators (its last line), so `import minichainer` stays cheap
    # and a program that never imports minichainer.functions still gets them (the
    # operations' loader imports the functions package).
    def operator(self, *args):
        _load_operations()
        if getattr(Variable, name) is operator:
            raise TypeError('Variable.{} is defined by minichainer.functions.math.basic_math, '
                            'which could not be imported'.format(name))
        return getattr(self, name)(*args)
    operator.__name__ = name
    return operator


for _name in _OPERATORS:
    setattr(Variable, _name, _lazy_operator(_name))
del _name

# backend.get_array_module looks into Variables' arrays; the backend sits below this module.
_backend_module.register_variable_type(Variable)
