"""Strided views of an array's memory (`chainer.functions.as_strided`).

Shapes, strides and offsets here count elements ("steps"), not bytes, and offsets are
measured from the start of the memory block the input is a view of.
"""
import numpy

from minichainer import backend
from minichainer import function_node
from minichainer.utils import scatter
from minichainer.utils import type_check


def _byte2step(iterable, itemsize):
    for i in iterable:
        if i % itemsize:
            raise ValueError('as_strided: byte stride {} is not a multiple of the item size '
                             '{}'.format(i, itemsize))
    return tuple(i // itemsize for i in iterable)


def _step2byte(iterable, itemsize):
    return tuple(i * itemsize for i in iterable)


def _maybe_overlapping_memory(shape, strides):
    """True when two elements of an array of this geometry may share memory."""
    max_ptr_in_slice = 0
    for stride, size in sorted(zip([abs(s) for s in strides], shape)):
        if stride <= max_ptr_in_slice:
            return True
        max_ptr_in_slice += stride * (size - 1)
    return False


def _min_index(shape, strides, storage_offset):
    """Smallest memory position (in steps) an array of this geometry touches."""
    return storage_offset + sum((n - 1) * s for n, s in zip(shape, strides) if s < 0)


def _max_index(shape, strides, storage_offset):
    """Largest memory position (in steps) an array of this geometry touches."""
    return storage_offset + sum((n - 1) * s for n, s in zip(shape, strides) if s > 0)


def _get_base_array(array):
    base = array
    if isinstance(array, numpy.ndarray):
        while isinstance(base.base, numpy.ndarray):
            base = base.base
    else:   # a CuPy array: the owner of its device memory
        while base.base is not None:
            base = base.base
    return base


def _data_pointer(array):
    if isinstance(array, numpy.ndarray):
        return array.__array_interface__['data'][0]
    return array.data.ptr     # a CuPy array's device memory


def _stride_array(array, shape, strides, storage_offset):
    """View of the memory block under `array` with the given geometry (in steps).

    Raises:
        ValueError: when the view would reach outside the memory block.
    """
    if _min_index(shape, strides, storage_offset) < 0:
        raise ValueError('Out of buffer: too small index was specified')
    base = _get_base_array(array)
    if (_max_index(shape, strides, storage_offset) + 1) * base.itemsize > base.nbytes:
        raise ValueError('Out of buffer: too large index was specified')
    if isinstance(array, numpy.ndarray):
        return numpy.ndarray(shape, array.dtype, buffer=base,
                             offset=storage_offset * base.itemsize,
                             strides=_step2byte(strides, array.itemsize))
    # a CuPy array: a strided view of its memory block, from the offset on
    xp = backend.get_array_module(array)
    memory = base.ravel(order='K')
    if memory.dtype != array.dtype:
        memory = memory.view(array.dtype)
    return xp.lib.stride_tricks.as_strided(memory[storage_offset:], shape,
                                           _step2byte(strides, array.itemsize))


class TensorGeometry:
    """Shape, strides and offset (in steps, from the memory block's start) of an array."""

    def __init__(self, array):
        self.shape = array.shape
        self.itemsize = array.itemsize
        self.strides = _byte2step(array.strides, array.itemsize)
        base = _get_base_array(array)
        offset = _data_pointer(array) - _data_pointer(base)
        self.storage_offset, = _byte2step((offset,), array.itemsize)

    @property
    def ndim(self):
        return len(self.shape)


def _positions(shape, strides, offset, xp):
    """Memory position (in steps) of every element of an array of this geometry."""
    pos = xp.full(shape, offset, dtype=numpy.int64)
    for axis, (n, s) in enumerate(zip(shape, strides)):
        index = [1] * len(shape)
        index[axis] = n
        pos = pos + (xp.arange(n, dtype=numpy.int64) * s).reshape(index)
    return pos


class _StridedMap:
    """Positions of the input and output elements in a common memory window."""

    def __init__(self, in_geometry, shape, strides, storage_offset, xp):
        # the geometry is known on the host: the positions are computed there and sent
        # to the device once
        in_pos = _positions(in_geometry.shape, in_geometry.strides,
                            in_geometry.storage_offset, numpy).ravel()
        out_pos = _positions(shape, strides, storage_offset, numpy).ravel()
        lo = min([int(p.min()) for p in (in_pos, out_pos) if p.size] or [0])
        hi = max([int(p.max()) for p in (in_pos, out_pos) if p.size] or [0])
        self.size = hi - lo + 1
        self.in_pos = xp.asarray(in_pos - lo)
        self.out_pos = xp.asarray(out_pos - lo)
        self.in_shape = in_geometry.shape
        self.out_shape = shape
        # An input element sharing memory with others gets the average of its gradient.
        self.in_count = xp.asarray(
            numpy.bincount(in_pos - lo, minlength=self.size)[in_pos - lo])

    def out_to_in(self, gy):
        """Gradient w.r.t. the input from that w.r.t. the output."""
        storage = scatter.bincount(self.out_pos, self.size, weights=gy.ravel())
        return (storage[self.in_pos] / self.in_count).astype(gy.dtype).reshape(
            self.in_shape)

    def in_to_out(self, gx):
        """Adjoint of `out_to_in`."""
        weights = gx.ravel() / self.in_count
        storage = scatter.bincount(self.in_pos, self.size, weights=weights)
        return storage[self.out_pos].astype(gx.dtype).reshape(self.out_shape)


def _check_float(array):
    if array.dtype.kind != 'f':
        raise TypeError('as_strided: only float is supported for back propagation, got '
                        '{}'.format(array.dtype))


class AsStrided(function_node.FunctionNode):
    """View the memory under an array with a new shape and strides."""

    def __init__(self, shape, strides, storage_offset=None):
        self.shape = tuple(shape)
        self.strides = tuple(strides)
        self.storage_offset = storage_offset
        self.input_geometry = None

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 1)

    def forward(self, inputs):
        x, = inputs
        self.input_geometry = TensorGeometry(x)
        if self.storage_offset is None:
            self.storage_offset = self.input_geometry.storage_offset
        return _stride_array(x, self.shape, self.strides, self.storage_offset),

    def backward(self, indexes, grad_outputs):
        return AsStridedGrad(self.input_geometry, self.shape, self.strides,
                             self.storage_offset).apply(grad_outputs)


class AsStridedGrad(function_node.FunctionNode):
    """Gradient of `AsStrided`: scatters the output gradient onto memory positions
    and reads it back with the input's geometry."""

    def __init__(self, input_geometry, shape, strides, storage_offset, strided_map=None):
        self.input_geometry = input_geometry
        self.shape = shape
        self.strides = strides
        self.storage_offset = storage_offset
        self._map = strided_map

    def _get_map(self, xp):
        if self._map is None:
            self._map = _StridedMap(self.input_geometry, self.shape, self.strides,
                                    self.storage_offset, xp)
        return self._map

    def forward(self, inputs):
        gy, = inputs
        _check_float(gy)
        xp = backend.get_array_module(gy)
        return self._get_map(xp).out_to_in(gy),

    def backward(self, indexes, grad_outputs):
        return _AsStridedGradGrad(self._map).apply(grad_outputs)


class _AsStridedGradGrad(function_node.FunctionNode):
    """Adjoint of `AsStridedGrad` (for double backprop)."""

    def __init__(self, strided_map):
        self._map = strided_map

    def forward(self, inputs):
        ggx, = inputs
        _check_float(ggx)
        return self._map.in_to_out(ggx),

    def backward(self, indexes, grad_outputs):
        gg, = grad_outputs
        return AsStridedGrad(None, None, None, None, self._map).apply((gg,))


def as_strided(x, shape, strides, storage_offset=None):
    """View the memory under `x` with a new shape and strides, as
    `numpy.lib.stride_tricks.as_strided` but counted in elements.

    `strides` and `storage_offset` count elements; the offset is measured from the
    start of the memory block `x` is a view of (default: where `x` starts). The
    gradient adds up the output gradients that land on one memory position; input
    elements sharing a position each get the average. Deliberate difference: double
    backprop is supported (Chainer raises NotImplementedError).

    Args:
        x (Variable or numpy.ndarray): Input variable.
        shape (tuple of int): Shape of the output.
        strides (tuple of int): Strides of the output, in elements.
        storage_offset (int or None): Offset of the first element, in elements.

    Returns:
        Variable: The strided view.

    Raises:
        ValueError: when the view would reach outside the memory block.
    """
    return AsStrided(shape, strides, storage_offset).apply((x,))[0]
