"""ONNX converters of the array functions (onnx_chainer's `functions/array.py`).

A converter is `convert_<FunctionNode class name>(func, opset_version, input_names,
output_names, context)` and returns the ONNX nodes computing the function's outputs
from its inputs. It reads the attributes that minichainer's FunctionNode keeps
(`func.slices`, `func.axis`, ...) and the shapes of `func.inputs`.

Several ONNX operators changed their signature along the opsets (attributes became
inputs); `_Emitter` writes each of them as the target opset wants:

======================  =============================================================
Squeeze / Unsqueeze     `axes` attribute up to 12, input from 13
ReduceSum               `axes` attribute up to 12, input from 13
Reduce{Max,Min,...}     `axes` attribute up to 17, input from 18
Split                   `split` attribute up to 12, input from 13
Slice                   attributes up to 9 (no steps), inputs from 10
Pad                     attributes up to 10, inputs from 11 (`wrap` mode from 19)
Resize / Upsample       Upsample up to 9, Resize from 10 (coordinate modes from 11)
======================  =============================================================

Beyond onnx_chainer's set: `Flip`, `FlipLR`, `FlipUD`, `Broadcast`, `PadSequence` and
`Diagonal`; `Repeat` takes per-element counts, `Pad` the `wrap` mode (opset 19),
`ResizeImages` is exact from opset 11 (both alignments, nearest mode too).

Helpers shared by the other converter modules of this package (math, connection,
pooling) live here too; their names start with an underscore so that the registry,
which collects the `convert_*` functions, leaves them alone.
"""
import numbers
import warnings

import numpy

from minichainer.onnx import onnx_helper
from minichainer.onnx.functions.opset_version import support

INT64_MAX = int(numpy.iinfo(numpy.int64).max)
INT64_MIN = int(numpy.iinfo(numpy.int64).min)


def _from(version):
    """A `support` tuple that keeps the exact opset from `version` on.

    `support` hands a converter the highest listed version not above the target;
    listing every version lets a converter (and `_Emitter`) see the target opset
    itself, while opsets below `version` still raise onnx_chainer's error.
    """
    return tuple(range(version, 100))


def _onnx():
    import onnx
    return onnx


def _tensor_type(dtype):
    """The ONNX `TensorProto` data type of a NumPy dtype."""
    return _onnx().helper.np_dtype_to_tensor_dtype(numpy.dtype(dtype))


def _to_numpy(a):
    """A NumPy copy of an index/constant array (NumPy, CuPy, list or scalar)."""
    if hasattr(a, 'get') and not isinstance(a, (numpy.ndarray, dict)):
        a = a.get()
    return numpy.asarray(a)


def _perm_of(ndim, fn):
    """The permutation `fn` (e.g. `lambda a: numpy.moveaxis(a, 0, -1)`) applies to the
    axes of an `ndim`-dimensional array, found on a zero-memory view."""
    probe = numpy.lib.stride_tricks.as_strided(
        numpy.zeros(1), shape=tuple(range(2, ndim + 2)), strides=(0,) * ndim)
    return [s - 2 for s in fn(probe).shape]


def _normalize_axis(axis, ndim):
    if not -ndim <= axis < ndim:
        raise ValueError('axis {} is out of range for an array of {} dimensions'.format(
            axis, ndim))
    return axis % ndim


def _is_known_name(context, obj):
    """Whether `context` already names `obj` (an input or an earlier output)."""
    name_list = getattr(context, 'name_list', None)
    if name_list is None:
        return True
    return id(obj) in name_list


def _name_or_const(context, array, name):
    """The ONNX name of `array`: its graph name when it is a graph input (as
    `F.where`'s condition or `F.permutate`'s indices usually are), else a constant."""
    if _is_known_name(context, array):
        return context.get_name(array)
    return context.add_const(_to_numpy(array), name)


class _Emitter(object):
    """A `GraphBuilder` that also knows the target opset and the export context, and
    writes the operators whose signature changed across opsets accordingly."""

    def __init__(self, opset_version, context):
        self.gb = onnx_helper.GraphBuilder()
        self.opset = opset_version
        self.context = context
        self._n_const = 0

    # -- plumbing -----------------------------------------------------------------
    def op(self, op_type, inputs, num_outputs=1, **attrs):
        return self.gb.op(op_type, list(inputs), num_outputs=num_outputs, **attrs)

    def op_named(self, op_type, inputs, outputs, **attrs):
        return self.gb.op_output_named(op_type, list(inputs), list(outputs), **attrs)

    def nodes(self, output_names, input_name=None):
        """The nodes emitted, the last one writing `output_names`; an Identity of
        `input_name` when nothing was emitted (e.g. `x[:]`)."""
        if not self.gb.node_count:
            self.gb.op('Identity', [input_name])
        return self.gb.nodes(output_names=list(output_names))

    def const(self, array, name, dtype=None):
        """A Constant node holding `array`; returns its output name."""
        self._n_const += 1
        value = numpy.array(array, dtype=dtype)
        name = '{}{}'.format(name, self._n_const)
        if self.opset < 9 and value.dtype.kind not in 'f':
            # Constant holds float tensors only before opset 9: a double constant
            # (exact for integers below 2**53) cast to the type wanted
            double = self.context.add_const(value.astype(numpy.float64), name)
            return self.cast(double, value.dtype)
        return self.context.add_const(value, name)

    def ints(self, values, name):
        return self.const(numpy.asarray(list(values), dtype=numpy.int64).reshape(-1), name)

    # -- operators whose signature changed ---------------------------------------
    def squeeze(self, x, axes):
        if self.opset >= 13:
            return self.op('Squeeze', [x, self.ints(axes, 'axes')])
        return self.op('Squeeze', [x], axes=list(axes))

    def unsqueeze(self, x, axes):
        if self.opset >= 13:
            return self.op('Unsqueeze', [x, self.ints(axes, 'axes')])
        return self.op('Unsqueeze', [x], axes=list(axes))

    def reduce(self, op_type, x, axes, keepdims):
        """`op_type` (ReduceSum, ReduceMax, ...) over `axes` (None: all axes)."""
        keepdims = int(bool(keepdims))
        as_input_from = 13 if op_type == 'ReduceSum' else 18
        if axes is None:
            return self.op(op_type, [x], keepdims=keepdims)
        axes = list(axes)
        if not axes:
            # reducing over no axis is the identity (NumPy's sum(axis=()))
            return self.op('Identity', [x])
        if self.opset >= as_input_from:
            return self.op(op_type, [x, self.ints(axes, 'axes')], keepdims=keepdims)
        return self.op(op_type, [x], axes=axes, keepdims=keepdims)

    def split(self, x, sizes, axis, outputs=None):
        """Split `x` along `axis` into pieces of `sizes`; writes `outputs` if given."""
        sizes = [int(s) for s in sizes]
        if self.opset >= 13:
            inputs, attrs = [x, self.ints(sizes, 'split')], {'axis': axis}
        else:
            inputs, attrs = [x], {'axis': axis, 'split': sizes}
        if outputs is not None:
            return self.op_named('Split', inputs, outputs, **attrs)
        return self.op('Split', inputs, num_outputs=len(sizes), **attrs)

    def slice(self, x, starts, ends, axes, steps=None):
        if steps is None:
            steps = [1] * len(axes)
        if self.opset < 10:
            if any(s != 1 for s in steps):
                raise ValueError(
                    'slicing with a step other than 1 needs ONNX opset 10 or newer '
                    '(Slice takes steps from opset 10); opset {} was asked for'.format(
                        self.opset))
            return self.op('Slice', [x], starts=list(starts), ends=list(ends),
                           axes=list(axes))
        inputs = [x, self.ints(starts, 'starts'), self.ints(ends, 'ends'),
                  self.ints(axes, 'axes')]
        if any(s != 1 for s in steps):
            inputs.append(self.ints(steps, 'steps'))
        return self.op('Slice', inputs)

    def cast(self, x, dtype):
        return self.op('Cast', [x], to=_tensor_type(dtype))

    def reshape(self, x, shape):
        shape = [int(s) for s in shape]
        attrs = {}
        if 0 in shape:
            if self.opset < 14:
                raise ValueError(
                    'reshaping to a shape with a zero-length axis {} needs ONNX opset '
                    '14 or newer (Reshape\'s allowzero); opset {} was asked for'.format(
                        tuple(shape), self.opset))
            attrs['allowzero'] = 1
        return self.op('Reshape', [x, self.ints(shape, 'shape')], **attrs)


def _batch_kept(context, in_shape, shape):
    """`shape` (a Reshape target) with its first axis written 0 ("copy the input's") when
    the export has a dynamic batch (`input_shapes` with a named first axis) and that axis
    is the batch: the exported batch size is not baked into the graph."""
    shape = [int(s) for s in shape]
    batch = getattr(context, 'dynamic_batch_size', None)
    if batch is not None and shape and len(in_shape) and 0 not in shape and \
            shape[0] == in_shape[0] == batch:
        shape[0] = 0
    return shape


def _warn_batch_baked(context, func, axis, how):
    """Warn when the export has a dynamic batch and `func` fixes it (works on `axis`,
    0 being the batch axis, in a way that `how` describes)."""
    batch = getattr(context, 'dynamic_batch_size', None)
    if batch is not None and axis == 0:
        warnings.warn(
            '{} {}: the exported batch size {} is fixed in the graph, which runs only '
            'at that batch size'.format(type(func).__name__, how, batch), UserWarning)


def _simple(op_type, func, opset_version, input_names, output_names, context, **attrs):
    e = _Emitter(opset_version, context)
    e.op(op_type, input_names, **attrs)
    return e.nodes(output_names)


# -- Cast, Copy, Concat, Reshape, Transpose and friends ---------------------------------

@support(_from(7))
def convert_Cast(func, opset_version, input_names, output_names, context):
    return _simple('Cast', func, opset_version, input_names, output_names, context,
                   to=_tensor_type(func.type))


@support(_from(7))
def convert_Concat(func, opset_version, input_names, output_names, context):
    axis = _normalize_axis(func.axis, len(func.inputs[0].shape))
    return _simple('Concat', func, opset_version, input_names, output_names, context,
                   axis=axis)


@support(_from(7))
def convert_Copy(func, opset_version, input_names, output_names, context):
    return _simple('Identity', func, opset_version, input_names, output_names, context)


@support(_from(7))
def convert_Depth2Space(func, opset_version, input_names, output_names, context):
    # Chainer's order (block rows, block columns, channels) is ONNX's DCR mode, the
    # default of DepthToSpace-11 and the only mode of DepthToSpace-1
    return _simple('DepthToSpace', func, opset_version, input_names, output_names,
                   context, blocksize=int(func.r))


@support(_from(7))
def convert_Space2Depth(func, opset_version, input_names, output_names, context):
    return _simple('SpaceToDepth', func, opset_version, input_names, output_names,
                   context, blocksize=int(func.r))


@support(_from(7))
def convert_Reshape(func, opset_version, input_names, output_names, context):
    e = _Emitter(opset_version, context)
    shape = getattr(func, 'shape', None)
    if shape is not None and len(input_names) == 1:
        shape = [int(s) for s in shape]
        kept = _batch_kept(context, func.inputs[0].shape, shape)
        if kept != shape:
            e.op('Reshape', [input_names[0], e.ints(kept, 'shape')])
        else:
            e.reshape(input_names[0], shape)
    elif len(input_names) == 2:
        # a reshape to a shape computed in the graph (`as_funcnode('Reshape')`)
        e.op('Reshape', input_names)
    else:
        raise ValueError('Reshape: the shape must be an attribute of the function '
                         'or its second input')
    return e.nodes(output_names)


@support(_from(7))
def convert_Transpose(func, opset_version, input_names, output_names, context):
    attrs = {}
    if func.axes is not None:
        ndim = len(func.inputs[0].shape)
        attrs['perm'] = [_normalize_axis(a, ndim) for a in func.axes]
    return _simple('Transpose', func, opset_version, input_names, output_names, context,
                   **attrs)


def _transpose_by(func, opset_version, input_names, output_names, context, fn):
    perm = _perm_of(len(func.inputs[0].shape), fn)
    return _simple('Transpose', func, opset_version, input_names, output_names, context,
                   perm=perm)


@support(_from(7))
def convert_Swapaxes(func, opset_version, input_names, output_names, context):
    return _transpose_by(func, opset_version, input_names, output_names, context,
                         lambda a: numpy.swapaxes(a, func.axis1, func.axis2))


@support(_from(7))
def convert_Moveaxis(func, opset_version, input_names, output_names, context):
    return _transpose_by(func, opset_version, input_names, output_names, context,
                         lambda a: numpy.moveaxis(a, func.source, func.destination))


@support(_from(7))
def convert_Rollaxis(func, opset_version, input_names, output_names, context):
    return _transpose_by(func, opset_version, input_names, output_names, context,
                         lambda a: numpy.rollaxis(a, func.axis, func.start))


@support(_from(7))
def convert_Squeeze(func, opset_version, input_names, output_names, context):
    shape = func.inputs[0].shape
    if func.axis is None:
        axes = [i for i, s in enumerate(shape) if s == 1]
    else:
        axes = sorted(_normalize_axis(a, len(shape)) for a in func.axis)
    e = _Emitter(opset_version, context)
    if axes:
        e.squeeze(input_names[0], axes)
    return e.nodes(output_names, input_names[0])


@support(_from(7))
def convert_ExpandDims(func, opset_version, input_names, output_names, context):
    axis = func.axis
    if axis < 0:
        axis += len(func.inputs[0].shape) + 1
    e = _Emitter(opset_version, context)
    e.unsqueeze(input_names[0], [axis])
    return e.nodes(output_names)


@support(_from(7))
def convert_Shape(func, opset_version, input_names, output_names, context):
    return _simple('Shape', func, opset_version, input_names, output_names, context)


@support(_from(7))
def convert_Tile(func, opset_version, input_names, output_names, context):
    reps = func.reps
    reps = [int(reps)] if isinstance(reps, numbers.Integral) else [int(r) for r in reps]
    ndim = len(func.inputs[0].shape)
    e = _Emitter(opset_version, context)
    x = input_names[0]
    if len(reps) > ndim:
        # NumPy first promotes x to len(reps) dimensions
        x = e.unsqueeze(x, range(len(reps) - ndim))
    reps = [1] * (ndim - len(reps)) + reps
    e.op('Tile', [x, e.ints(reps, 'repeats')])
    return e.nodes(output_names)


@support(_from(7))
def convert_Repeat(func, opset_version, input_names, output_names, context):
    # numpy.repeat as a Gather of constant indices: exact for every dtype and for
    # per-element repeat counts (onnx_chainer used Upsample, one count only)
    shape = func.inputs[0].shape
    e = _Emitter(opset_version, context)
    x = input_names[0]
    if func.axis is None:
        x = e.reshape(x, [-1])
        axis, n = 0, int(numpy.prod(shape, dtype=numpy.int64))
    else:
        axis = _normalize_axis(func.axis, len(shape))
        n = shape[axis]
    _warn_batch_baked(context, func, axis, 'repeats along the batch axis')
    repeats = list(func.repeats)
    if len(repeats) == 1:
        repeats = repeats * n
    indices = numpy.repeat(numpy.arange(n, dtype=numpy.int64), repeats)
    e.op('Gather', [x, e.const(indices, 'indices')], axis=axis)
    return e.nodes(output_names)


@support(_from(7))
def convert_Flip(func, opset_version, input_names, output_names, context):
    return _flip(func, opset_version, input_names, output_names, context, func.axis)


@support(_from(7))
def convert_FlipLR(func, opset_version, input_names, output_names, context):
    return _flip(func, opset_version, input_names, output_names, context, 1)


@support(_from(7))
def convert_FlipUD(func, opset_version, input_names, output_names, context):
    return _flip(func, opset_version, input_names, output_names, context, 0)


def _flip(func, opset_version, input_names, output_names, context, axis):
    shape = func.inputs[0].shape
    axis = _normalize_axis(axis, len(shape))
    e = _Emitter(opset_version, context)
    if opset_version >= 10:
        e.slice(input_names[0], [-1], [INT64_MIN], [axis], [-1])
    else:
        _warn_batch_baked(context, func, axis, 'reverses the batch axis before opset 10')
        indices = numpy.arange(shape[axis] - 1, -1, -1, dtype=numpy.int64)
        e.op('Gather', [input_names[0], e.const(indices, 'indices')], axis=axis)
    return e.nodes(output_names)


# -- Pad -----------------------------------------------------------------------------

@support(_from(7))
def convert_Pad(func, opset_version, input_names, output_names, context):
    mode = func.mode
    modes = ('constant', 'reflect', 'edge') + (('wrap',) if opset_version >= 19 else ())
    if mode not in modes:
        raise ValueError(
            'Pad: mode {!r} has no ONNX equivalent at opset {} (ONNX Pad has the modes '
            '{}{})'.format(mode, opset_version, ', '.join(modes),
                           '' if opset_version >= 19 else '; wrap from opset 19'))
    x_shape = func.inputs[0].shape
    ndim = len(x_shape)
    pad_bw = numpy.asarray(func.pad_bw, dtype=numpy.int64)
    if pad_bw.size == 1:
        pad_bw = numpy.repeat(pad_bw.reshape(1), 2)
    pad_bw = numpy.broadcast_to(pad_bw.reshape(-1, 2), (ndim, 2))
    pads = [int(p) for p in pad_bw[:, 0]] + [int(p) for p in pad_bw[:, 1]]

    value = None
    if mode == 'constant':
        cv = func.keywords.get('constant_values', None)
        if cv is not None:
            cv = numpy.unique(numpy.asarray(_to_numpy(cv)))
            if cv.size > 1:
                raise ValueError(
                    'Pad: ONNX pads with one constant value, but constant_values holds '
                    'several ({})'.format(cv.tolist()))
            value = cv.reshape(()).item()
    e = _Emitter(opset_version, context)
    if opset_version < 11:
        attrs = {'mode': mode, 'pads': pads}
        if value is not None:
            attrs['value'] = float(value)
        e.op('Pad', input_names, **attrs)
    else:
        inputs = [input_names[0], e.ints(pads, 'pads')]
        if value is not None:
            inputs.append(e.const(numpy.array(value, dtype=func.inputs[0].dtype),
                                  'constant_value'))
        e.op('Pad', inputs, mode=mode)
    return e.nodes(output_names)


# -- GetItem -------------------------------------------------------------------------

def _expand_slices(slices, ndim):
    """`slices` as a list of ('slice', s) / ('int', i) / ('new', None) /
    ('array', int64 array) entries with the Ellipsis (or the implicit trailing one)
    spelled out and boolean arrays turned into their nonzero index arrays."""
    entries = []
    consumed = 0
    ellipsis_at = None
    for s in slices:
        if s is None:
            entries.append(('new', None))
        elif s is Ellipsis:
            if ellipsis_at is not None:
                raise ValueError('GetItem: only one Ellipsis is allowed in slices')
            ellipsis_at = len(entries)
        elif isinstance(s, slice):
            entries.append(('slice', s))
            consumed += 1
        elif isinstance(s, (bool, numpy.bool_)):
            raise ValueError('GetItem: a boolean scalar index cannot be exported to ONNX')
        elif isinstance(s, numbers.Integral):
            entries.append(('int', int(s)))
            consumed += 1
        else:
            try:
                a = _to_numpy(s)
            except Exception:
                a = None
            if a is None or a.dtype.kind not in 'iub' or a.dtype == object:
                raise ValueError(
                    'GetItem: an index of type {} cannot be exported to ONNX (ints, '
                    'slices, None, Ellipsis and integer or boolean arrays can)'.format(
                        type(s).__name__))
            if a.dtype.kind == 'b':
                for idx in numpy.nonzero(a):
                    entries.append(('array', idx.astype(numpy.int64)))
                consumed += max(a.ndim, 1)
            elif a.ndim == 0:
                entries.append(('int', int(a)))
                consumed += 1
            else:
                entries.append(('array', a.astype(numpy.int64)))
                consumed += 1
    rest = [('slice', slice(None))] * (ndim - consumed)
    if ellipsis_at is None:
        entries.extend(rest)
    else:
        entries[ellipsis_at:ellipsis_at] = rest
    return entries


@support(_from(7))
def convert_GetItem(func, opset_version, input_names, output_names, context):
    x_shape = func.inputs[0].shape
    entries = _expand_slices(func.slices, len(x_shape))

    axes, starts, ends, steps = [], [], [], []
    squeeze_axes, unsqueeze_axes = [], []
    arrays = []             # (position in the index, output axis, indices)
    advanced = []           # positions of the ints and arrays (NumPy's advanced part)
    whole_before = new_before = False
    in_axis = out_axis = 0
    for pos, (kind, idx) in enumerate(entries):
        if kind == 'slice':
            step = 1 if idx.step is None else int(idx.step)
            if step == 0:
                raise ValueError('GetItem: slice step cannot be zero')
            if idx.start is None and idx.stop is None and step == 1:
                whole_before = whole_before or not arrays
            else:
                if step > 0:
                    start = 0 if idx.start is None else int(idx.start)
                    stop = INT64_MAX if idx.stop is None else int(idx.stop)
                else:
                    start = INT64_MAX if idx.start is None else int(idx.start)
                    stop = INT64_MIN if idx.stop is None else int(idx.stop)
                axes.append(in_axis)
                starts.append(start)
                ends.append(stop)
                steps.append(step)
            in_axis += 1
            out_axis += 1
        elif kind == 'int':
            axes.append(in_axis)
            starts.append(idx)
            ends.append(INT64_MAX if idx == -1 else idx + 1)
            steps.append(1)
            squeeze_axes.append(in_axis)
            advanced.append(pos)
            in_axis += 1
        elif kind == 'new':
            unsqueeze_axes.append(out_axis)
            new_before = new_before or not arrays
            out_axis += 1
        else:
            size = x_shape[in_axis]
            arrays.append((pos, out_axis, numpy.where(idx < 0, idx + size, idx)))
            advanced.append(pos)
            in_axis += 1
            out_axis += 1

    e = _Emitter(opset_version, context)
    x = input_names[0]
    if axes:
        x = e.slice(x, starts, ends, axes, steps)
    if squeeze_axes:
        x = e.squeeze(x, squeeze_axes)
    if unsqueeze_axes:
        x = e.unsqueeze(x, unsqueeze_axes)

    if len(arrays) == 1:
        _, axis, indices = arrays[0]
        x = e.op('Gather', [x, e.const(indices, 'indices')], axis=axis)
        contiguous = max(advanced) - min(advanced) + 1 == len(advanced)
        if not contiguous and axis > 0:
            # NumPy puts the indexed axes first when the advanced indices (integers
            # included) are not next to each other
            out_ndim = out_axis - 1 + indices.ndim
            moved = list(range(axis, axis + indices.ndim))
            perm = moved + [a for a in range(out_ndim) if a not in moved]
            e.op('Transpose', [x], perm=perm)
    elif arrays:
        positions = [p for p, _, _ in arrays]
        if positions != list(range(positions[0], positions[0] + len(positions))):
            raise ValueError('GetItem: ONNX export does not support non-consecutive '
                             'multiple advanced indices')
        if whole_before or arrays[0][1] != 0:
            if new_before:
                raise ValueError('GetItem: ONNX export does not support a new axis in '
                                 'front of multiple advanced indices')
            raise ValueError('GetItem: ONNX export does not support slicing in front of '
                             'multiple advanced indices')
        if opset_version < 11:
            raise ValueError(
                'GetItem: multiple advanced indices are exported as GatherND, which '
                'needs ONNX opset 11 or newer; opset {} was asked for'.format(
                    opset_version))
        indices = numpy.stack(numpy.broadcast_arrays(*[a for _, _, a in arrays]), -1)
        e.op('GatherND', [x, e.const(indices, 'indices')])
    return e.nodes(output_names, input_names[0])


# -- SelectItem, Where, Permutate ------------------------------------------------------

@support(_from(7))
def convert_SelectItem(func, opset_version, input_names, output_names, context):
    x, t = input_names
    e = _Emitter(opset_version, context)
    if opset_version >= 11:
        t1 = e.unsqueeze(t, [1])
        y = e.op('GatherElements', [x, t1], axis=1)
        e.squeeze(y, [1])
    else:
        # x.reshape(-1)[t + arange(n) * c] (the batch size is fixed in the graph)
        _warn_batch_baked(context, func, 0, 'before opset 11')
        n, c = func.inputs[0].shape
        offsets = e.const(numpy.arange(n, dtype=numpy.int64) * c, 'offsets')
        flat = e.reshape(x, [-1])
        idx = e.op('Add', [e.cast(t, numpy.int64), offsets])
        e.op('Gather', [flat, idx], axis=0)
    return e.nodes(output_names)


@support(_from(9))
def convert_Where(func, opset_version, input_names, output_names, context):
    cond = _name_or_const(context, func.condition, 'condition')
    return _simple('Where', func, opset_version, [cond] + list(input_names),
                   output_names, context)


@support(_from(7))
def convert_Permutate(func, opset_version, input_names, output_names, context):
    e = _Emitter(opset_version, context)
    indices = func.indices
    if not _is_known_name(context, indices):
        # a constant permutation: inverted here, once
        idx = _to_numpy(indices).astype(numpy.int64)
        if func.inv:
            inv = numpy.empty_like(idx)
            inv[idx] = numpy.arange(len(idx), dtype=numpy.int64)
            idx = inv
        name = e.const(idx, 'indices')
    else:
        # the permutation is a graph input: inverted in the graph by scattering
        name = context.get_name(indices)
        if func.inv:
            if opset_version < 9:
                raise ValueError(
                    'Permutate with inv=True on a permutation given as an input needs '
                    'ONNX opset 9 or newer (Scatter); opset {} was asked for'.format(
                        opset_version))
            n = len(indices)
            empty = e.const(numpy.zeros(n, numpy.int64), 'empty')
            r = e.const(numpy.arange(n, dtype=numpy.int64), 'range')
            name = e.op('ScatterElements' if opset_version >= 11 else 'Scatter',
                        [empty, e.cast(name, numpy.int64), r])
    e.op('Gather', [input_names[0], name], axis=func.axis)
    return e.nodes(output_names)


# -- splitting and stacking ------------------------------------------------------------

def _split_sizes(total, indices_or_sections):
    return [len(p) for p in numpy.array_split(numpy.arange(total), indices_or_sections)] \
        if isinstance(indices_or_sections, numbers.Integral) else \
        [len(p) for p in numpy.split(numpy.arange(total), list(indices_or_sections))]


@support(_from(7))
def convert_SplitAxis(func, opset_version, input_names, output_names, context):
    shape = func.inputs[0].shape
    axis = _normalize_axis(func.axis, len(shape))
    ios = func.indices if func.indices is not None else func.sections
    _warn_batch_baked(context, func, axis, 'splits the batch axis')
    sizes = _split_sizes(shape[axis], ios)
    if len(sizes) != len(output_names):
        raise ValueError('SplitAxis: {} pieces for {} outputs'.format(
            len(sizes), len(output_names)))
    e = _Emitter(opset_version, context)
    if len(sizes) == 1:
        e.op_named('Identity', input_names, output_names)
    else:
        e.split(input_names[0], sizes, axis, outputs=output_names)
    return e.nodes(output_names)


@support(_from(7))
def convert_Separate(func, opset_version, input_names, output_names, context):
    shape = func.inputs[0].shape
    axis = _normalize_axis(func.axis, len(shape))
    n = shape[axis]
    _warn_batch_baked(context, func, axis, 'separates the batch axis')
    e = _Emitter(opset_version, context)
    if n == 1:
        pieces = [input_names[0]]
    else:
        pieces = e.split(input_names[0], [1] * n, axis)
    for piece, out in zip(pieces, output_names):
        if opset_version >= 13:
            e.op_named('Squeeze', [piece, e.ints([axis], 'axes')], [out])
        else:
            e.op_named('Squeeze', [piece], [out], axes=[axis])
    return e.gb.nodes()


@support(_from(7))
def convert_Stack(func, opset_version, input_names, output_names, context):
    axis = func.axis
    ndim = len(func.inputs[0].shape)
    if axis < 0:
        axis += ndim + 1
    e = _Emitter(opset_version, context)
    xs = [e.unsqueeze(x, [axis]) for x in input_names]
    e.op('Concat', xs, axis=axis)
    return e.nodes(output_names)


def _stack_like(func, opset_version, input_names, output_names, context, new_axes, axis):
    ndim = len(func.inputs[0].shape)
    e = _Emitter(opset_version, context)
    xs = list(input_names)
    if new_axes.get(ndim):
        xs = [e.unsqueeze(x, new_axes[ndim]) for x in xs]
    e.op('Concat', xs, axis=axis(ndim))
    return e.nodes(output_names)


@support(_from(7))
def convert_Hstack(func, opset_version, input_names, output_names, context):
    return _stack_like(func, opset_version, input_names, output_names, context,
                       {0: [0]}, lambda ndim: 0 if ndim <= 1 else 1)


@support(_from(7))
def convert_Vstack(func, opset_version, input_names, output_names, context):
    return _stack_like(func, opset_version, input_names, output_names, context,
                       {0: [0, 1], 1: [0]}, lambda ndim: 0)


@support(_from(7))
def convert_Dstack(func, opset_version, input_names, output_names, context):
    return _stack_like(func, opset_version, input_names, output_names, context,
                       {0: [0, 1, 2], 1: [0, 2], 2: [2]}, lambda ndim: 2)


@support(_from(7))
def convert_TransposeSequence(func, opset_version, input_names, output_names, context):
    shapes = [x.shape for x in func.inputs]
    if any(s != shapes[0] for s in shapes):
        raise ValueError('TransposeSequence: ONNX export needs sequences of one length; '
                         'the input shapes are {}'.format(shapes))
    n = shapes[0][0]
    _warn_batch_baked(context, func, 0, 'transposes the batch axis')
    e = _Emitter(opset_version, context)
    stacked = e.op('Concat', [e.unsqueeze(x, [0]) for x in input_names], axis=0)
    perm = list(range(len(shapes[0]) + 1))
    perm[0], perm[1] = 1, 0
    t = e.op('Transpose', [stacked], perm=perm)
    pieces = [t] if n == 1 else e.split(t, [1] * n, 0)
    for piece, out in zip(pieces, output_names):
        if opset_version >= 13:
            e.op_named('Squeeze', [piece, e.ints([0], 'axes')], [out])
        else:
            e.op_named('Squeeze', [piece], [out], axes=[0])
    return e.gb.nodes()


@support(_from(7))
def convert_BroadcastTo(func, opset_version, input_names, output_names, context):
    shape = [int(s) for s in func.target_shape]
    e = _Emitter(opset_version, context)
    # 1 where the input already has the target's length: broadcasting keeps the
    # input's own length there (a dynamic batch stays dynamic)
    in_shape = list(func.inputs[0].shape)
    lead = len(shape) - len(in_shape)
    target = [1 if i >= lead and in_shape[i - lead] == t else t for i, t in enumerate(shape)]
    if tuple(shape) == tuple(in_shape):
        e.op('Identity', input_names)
    elif opset_version >= 8:
        e.op('Expand', [input_names[0], e.ints(target, 'shape')])
    else:
        # no Expand before opset 8: adding zeros broadcasts
        zeros = e.const(numpy.zeros(target, dtype=func.inputs[0].dtype), 'zeros')
        e.op('Add', [input_names[0], zeros])
    return e.nodes(output_names)


@support(_from(8))
def convert_Broadcast(func, opset_version, input_names, output_names, context):
    shape = numpy.broadcast_shapes(*[tuple(x.shape) for x in func.inputs])
    e = _Emitter(opset_version, context)
    if getattr(context, 'dynamic_batch_size', None) is not None:
        # the broadcast shape from the graph (the Sum broadcasts too), not a constant
        target = e.op('Shape', [e.op('Sum', input_names)])
    else:
        target = e.ints(shape, 'shape')
    for x, node, out in zip(input_names, func.inputs, output_names):
        if tuple(node.shape) == tuple(shape):
            e.op_named('Identity', [x], [out])
        else:
            e.op_named('Expand', [x, target], [out])
    return e.gb.nodes()


@support(_from(7))
def convert_PadSequence(func, opset_version, input_names, output_names, context):
    # each sequence padded at the end of its first axis to the common length, stacked
    shapes = [tuple(x.shape) for x in func.inputs]
    length = max(s[0] for s in shapes) if func.length is None else int(func.length)
    dtype = numpy.dtype(func.inputs[0].dtype)
    padding = numpy.asarray(func.padding).astype(dtype)
    e = _Emitter(opset_version, context)
    rows = []
    for x, shape in zip(input_names, shapes):
        extra = length - shape[0]
        if extra:
            pads = [0] * len(shape) + [extra] + [0] * (len(shape) - 1)
            if opset_version < 11:
                x = e.op('Pad', [x], mode='constant', pads=pads, value=float(padding))
            else:
                x = e.op('Pad', [x, e.ints(pads, 'pads'), e.const(padding, 'padding')],
                         mode='constant')
        rows.append(e.unsqueeze(x, [0]))
    e.op('Concat', rows, axis=0)
    return e.nodes(output_names)


@support(_from(11))
def convert_Diagonal(func, opset_version, input_names, output_names, context):
    # axis1 and axis2 moved to the front, their diagonal gathered (GatherND with the
    # constant pairs (i, i + offset)), the diagonal's axis moved last as NumPy does
    shape = func.inputs[0].shape
    ndim = len(shape)
    a1, a2 = _normalize_axis(func.axis1, ndim), _normalize_axis(func.axis2, ndim)
    rest = [a for a in range(ndim) if a not in (a1, a2)]
    offset = int(func.offset)
    rows = numpy.arange(max(0, -offset), shape[a1], dtype=numpy.int64)
    rows = rows[rows + offset < shape[a2]]
    pairs = numpy.stack([rows, rows + offset], axis=-1).reshape(-1, 2)
    e = _Emitter(opset_version, context)
    t = e.op('Transpose', input_names, perm=[a1, a2] + rest)
    d = e.op('GatherND', [t, e.const(pairs, 'pairs')])
    if rest:
        e.op('Transpose', [d], perm=list(range(1, len(rest) + 1)) + [0])
    return e.nodes(output_names)


# -- ResizeImages ----------------------------------------------------------------------

@support(_from(7))
def convert_ResizeImages(func, opset_version, input_names, output_names, context):
    h, w = func.inputs[0].shape[2:]
    out_h, out_w = int(func.out_H), int(func.out_W)
    bilinear = func.mode == 'bilinear'
    e = _Emitter(opset_version, context)
    x = input_names[0]
    if opset_version >= 11:
        # exact: Chainer's align_corners=True is ONNX's 'align_corners', its
        # align_corners=False (pixel centres, clamped at the border) 'half_pixel' in
        # linear mode; its nearest mode is floor(i * in / out): 'asymmetric' + 'floor'
        if bilinear:
            attrs = {'mode': 'linear', 'coordinate_transformation_mode':
                     'align_corners' if func.align_corners else 'half_pixel'}
        else:
            attrs = {'mode': 'nearest', 'coordinate_transformation_mode': 'asymmetric',
                     'nearest_mode': 'floor'}
        nc = e.slice(e.op('Shape', [x]), [0], [2], [0])
        sizes = e.op('Concat', [nc, e.ints([out_h, out_w], 'hw')], axis=0)
        if opset_version >= 13:
            roi = scales = ''
        else:   # roi and scales are required inputs of Resize-11: empty ones
            roi = e.const(numpy.zeros(0, numpy.float32), 'roi')
            scales = e.const(numpy.zeros(0, numpy.float32), 'scales')
        e.op('Resize', [x, roi, scales, sizes], **attrs)
        return e.nodes(output_names)

    if bilinear:
        warnings.warn(
            'resize_images is exported to ONNX opset {} as Upsample/Resize in linear '
            'mode, whose sampling grid differs from Chainer\'s bilinear interpolation: '
            'the outputs do not match. Export with opset 11 or newer for an exact '
            'ResizeImages.'.format(opset_version), UserWarning)
    scales = [1.0, 1.0, float(out_h) / float(h), float(out_w) / float(w)]
    mode = 'linear' if bilinear else 'nearest'
    if opset_version < 9:
        e.op('Upsample', [x], scales=scales, mode=mode)
    else:
        scales_name = e.const(numpy.array(scales, dtype=numpy.float32), 'scales')
        e.op('Upsample' if opset_version == 9 else 'Resize', [x, scales_name], mode=mode)
    return e.nodes(output_names)
