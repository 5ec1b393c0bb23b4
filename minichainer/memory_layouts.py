"""Memory layouts of arrays (`chainer.memory_layouts`).

A Variable may hold its array in a non-standard memory layout: `CUDNN_CHANNEL_LAST_X`
stores an `(N, C, H, W)` image batch as `(N, H, W, C)`; `CUDNN_CHANNEL_LAST_W` does
the same for convolution weights.  The *semantic* shape (`Variable.shape`) stays
channel-first; `Variable.raw_array` is the array as stored.  `None` is the standard
(channel-first) layout.  `AsLayout` (`Variable.as_layout`) converts between layouts
differentiably.

Chainer uses these layouts for cuDNN's fast channel-last kernels, which do not exist on
the CPU: as in Chainer, functions without explicit layout support reject inputs in a
non-standard layout (convert them with `as_layout(None)` first).
"""
from minichainer import _operations
from minichainer import function_node
from minichainer import variable
from minichainer.utils import type_check

CUDNN_CHANNEL_FIRST_X = None
CUDNN_CHANNEL_LAST_X = 'CUDNN_CHANNEL_LAST_X'
CUDNN_CHANNEL_FIRST_W = None
CUDNN_CHANNEL_LAST_W = 'CUDNN_CHANNEL_LAST_W'

_CHANNEL_LAST = (CUDNN_CHANNEL_LAST_X, CUDNN_CHANNEL_LAST_W)


class _Unspecified:
    def __repr__(self):
        return '<unspecified>'


_unspecified = _Unspecified()


def get_raw_shape(arr_or_var):
    """The shape of the array as stored (for a Variable, of its raw array)."""
    if isinstance(arr_or_var, variable.Variable):
        return arr_or_var.raw_array.shape
    return arr_or_var.shape


def get_semantic_shape(arr_or_var, *, assumed_layout=_unspecified):
    """The semantic (channel-first) shape of a Variable, or of an array stored in
    `assumed_layout`.

    Raises:
        ValueError: a Variable whose layout is not `assumed_layout`.
    """
    if not isinstance(arr_or_var, variable.Variable):
        shape = arr_or_var.shape
        if assumed_layout is not _unspecified:
            shape = _transpose_shape(shape, assumed_layout, None)
        return shape
    if assumed_layout is not _unspecified and arr_or_var.layout != assumed_layout:
        raise ValueError('get_semantic_shape: the variable has layout {!r}, not the assumed '
                         '{!r}'.format(arr_or_var.layout, assumed_layout))
    return arr_or_var.shape


def _get_layout_transpose_axes(ndim, src_layout, dst_layout, inverse=False):
    """Axes that turn an array in `src_layout` into `dst_layout` (None: no change)."""
    if src_layout == dst_layout:
        return None
    for layout in (src_layout, dst_layout):
        if layout is not None and layout not in _CHANNEL_LAST:
            raise ValueError('Unknown layout conversion: from {!r} to {!r}'.format(
                src_layout, dst_layout))
    if src_layout is not None and dst_layout is not None:
        raise ValueError('Unknown layout conversion: from {!r} to {!r}'.format(
            src_layout, dst_layout))
    if ndim < 3:
        raise ValueError('layout {!r} needs an array of at least 3 dimensions, got {}'.format(
            src_layout or dst_layout, ndim))
    if dst_layout is not None:  # channel-first -> channel-last
        axes = (0,) + tuple(range(2, ndim)) + (1,)
    else:  # channel-last -> channel-first
        axes = (0, ndim - 1) + tuple(range(1, ndim - 1))
    if inverse:
        inv = [0] * ndim
        for i, axis in enumerate(axes):
            inv[axis] = i
        axes = tuple(inv)
    return axes


def transpose_array(arr, src_layout, dst_layout):
    """`arr` (stored in `src_layout`) viewed in `dst_layout` (None: the standard one)."""
    axes = _get_layout_transpose_axes(arr.ndim, src_layout, dst_layout)
    return arr if axes is None else arr.transpose(axes)


def transpose_shape(shape, src_layout, dst_layout):
    """`shape` (of an array stored in `src_layout`) as seen in `dst_layout`."""
    axes = _get_layout_transpose_axes(len(shape), src_layout, dst_layout)
    return shape if axes is None else tuple(shape[i] for i in axes)


_transpose_array = transpose_array  # Chainer's names
_transpose_shape = transpose_shape


class AsLayout(function_node.FunctionNode):
    """Convert a Variable to memory layout `layout` (differentiable)."""

    axes = None
    in_layout = None

    def __init__(self, layout):
        self.out_layout = layout
        function_node.enable_memory_layouts()  # the output carries a layout from now on

    @property
    def label(self):
        return 'AsLayout'

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 1)

    def check_layout_forward(self, inputs):
        x, = inputs
        self.in_layout = x.layout
        self.axes = _get_layout_transpose_axes(x.raw_array.ndim, x.layout, self.out_layout)

    def forward(self, inputs):
        x, = inputs
        self.output_layouts = (self.out_layout,)
        if self.axes is None:
            return x,
        return x.transpose(self.axes),

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        if self.axes is None:
            return gy,
        inverse = _get_layout_transpose_axes(len(self.axes), self.in_layout,
                                             self.out_layout, inverse=True)
        return _operations.operations.transpose(gy, inverse),


# What Variable reads for its layout, through the operations registry (variable.py imports
# nothing above it).
_operations.register(as_layout_node=AsLayout, transpose_shape=transpose_shape,
                     transpose_array=transpose_array)
