"""Converters of normalizations: batch (train and fixed), group, local response, L2."""
import numpy

from minichainer.onnx import onnx_helper
from minichainer.onnx.functions.opset_version import support


def _owner_prefix(func, context):
    # ``param_<link path>`` of the link whose gamma/beta the function uses, or None
    for index in (2, 1):
        var = func.inputs[index].get_variable_or_none()
        if var is not None:
            found = context.get_link(var)
            if found is not None:
                return found[0]
    return None


def _add_stat(context, func, prefix, array, suffix):
    if prefix is None:
        return context.add_param(array, suffix)
    return context.add_param(array, '{}_{}'.format(prefix, suffix), use_original_name=True)


def _batch_normalization(func, opset_version, input_names, output_names, context, fixed):
    input_names = list(input_names)
    prefix = _owner_prefix(func, context)
    x_ndim = len(func.inputs[0].shape)
    axis = tuple(a % x_ndim for a in func.axis)
    if fixed:
        # statistics that were neither network inputs nor a link's persistents (arrays
        # made in the forward) are exported under the function's name, as onnx_chainer
        for index, suffix in ((3, 'avg_mean'), (4, 'avg_var')):
            array = context.implicit_inputs.pop(input_names[index], None)
            if array is not None:
                input_names[index] = _add_stat(context, func, prefix, array, suffix)
    else:
        # train mode: the mini-batch's statistics of the exported forward, as constants
        # (onnx_chainer's behaviour): the graph normalizes later inputs with them
        x = context.input_array(func, 0)
        if x is None:
            raise ValueError('BatchNormalization: the input of the train-mode function is '
                             'not available for its statistics')
        mean = x.mean(axis=axis).astype(x.dtype)
        var = x.var(axis=axis).astype(x.dtype)
        input_names += [_add_stat(context, func, prefix, mean, 'avg_mean'),
                        _add_stat(context, func, prefix, var, 'avg_var')]
    eps = float(func.eps)
    key_axis = tuple(i for i in range(x_ndim) if i not in axis)
    if key_axis == (1,) and x_ndim >= 2:
        kwargs = {'epsilon': eps, 'momentum': float(getattr(func, 'decay', 0.9))}
        if opset_version < 9:
            kwargs['spatial'] = 1
        return onnx_helper.make_node('BatchNormalization', input_names, output_names,
                                     **kwargs),
    # statistics over other axes: (x - mean) / sqrt(var + eps) * gamma + beta, the
    # per-key arrays reshaped to broadcast
    x_shape = tuple(func.inputs[0].shape)
    shape = numpy.array([x_shape[i] if i in key_axis else 1 for i in range(x_ndim)],
                        dtype=numpy.int64)
    dtype = numpy.dtype(func.inputs[0].dtype)
    gb = onnx_helper.GraphBuilder()
    target = gb.const(shape)
    x, gamma, beta, mean, var = [input_names[0]] + [
        gb.op('Reshape', [name, target]) for name in input_names[1:5]]
    std = gb.op('Sqrt', [gb.op('Add', [var, gb.const(numpy.array(eps, dtype=dtype))])])
    normalized = gb.op('Div', [gb.op('Sub', [x, mean]), std])
    gb.op('Add', [gb.op('Mul', [normalized, gamma]), beta])
    return gb.nodes(output_names=output_names)


@support((7, 9))
def convert_BatchNormalization(func, opset_version, input_names, output_names, context):
    """Train-mode batch normalization: BatchNormalization with the exported batch's
    statistics as ``<link>_avg_mean``/``avg_var`` initializers (as onnx_chainer)."""
    return _batch_normalization(func, opset_version, input_names, output_names, context,
                                fixed=False)


@support((7, 9))
def convert_FixedBatchNormalization(func, opset_version, input_names, output_names,
                                    context):
    """Test-mode batch normalization: BatchNormalization with the running statistics."""
    return _batch_normalization(func, opset_version, input_names, output_names, context,
                                fixed=True)


@support((7,))
def convert_GroupNormalization(func, opset_version, input_names, output_names, context):
    """Group normalization as InstanceNormalization of `x` reshaped to
    (batch, groups, -1), then reshaped back and scaled per channel; any batch size."""
    x_shape = tuple(func.inputs[0].shape)
    dtype = numpy.dtype(func.inputs[0].dtype)
    groups = int(func.groups)
    gb = onnx_helper.GraphBuilder()
    grouped = gb.op('Reshape', [input_names[0],
                                gb.const(numpy.array([0, groups, -1], dtype=numpy.int64))])
    normalized = gb.op('InstanceNormalization', [
        grouped, gb.const(numpy.ones(groups, dtype=dtype)),
        gb.const(numpy.zeros(groups, dtype=dtype))], epsilon=float(func.eps))
    restored = gb.op('Reshape', [normalized, gb.op('Shape', [input_names[0]])])
    channel_shape = gb.const(numpy.array((x_shape[1],) + (1,) * (len(x_shape) - 2),
                                         dtype=numpy.int64))
    gamma = gb.op('Reshape', [input_names[1], channel_shape])
    beta = gb.op('Reshape', [input_names[2], channel_shape])
    gb.op('Add', [gb.op('Mul', [restored, gamma]), beta])
    return gb.nodes(output_names=output_names)


@support((7,))
def convert_LocalResponseNormalization(func, opset_version, input_names, output_names,
                                       context):
    """LRN; ONNX's alpha is divided by the window size, so Chainer's alpha times n."""
    size = int(func.n)
    if size % 2 == 0:
        raise NotImplementedError(
            'LocalResponseNormalization: only an odd n is exportable (ONNX LRN centres '
            'an even window differently), got n={}'.format(size))
    return onnx_helper.make_node('LRN', input_names, output_names,
                                 alpha=float(func.alpha) * size, beta=float(func.beta),
                                 bias=float(func.k), size=size),


@support((7,))
def convert_NormalizeL2(func, opset_version, input_names, output_names, context):
    """`x / (||x||_2 + eps)` along `axis` (one or several axes), exactly Chainer's."""
    axis = func.axis if isinstance(func.axis, (tuple, list)) else (func.axis,)
    ndim = len(func.inputs[0].shape)
    axis = [int(a) % ndim for a in axis]
    dtype = numpy.dtype(func.inputs[0].dtype)
    gb = onnx_helper.GraphBuilder()
    norm = gb.axes_op('ReduceL2', input_names, axis, opset_version, keepdims=1)
    norm = gb.op('Add', [norm, gb.const(numpy.array(func.eps, dtype=dtype))])
    gb.op('Div', [input_names[0], norm])
    return gb.nodes(output_names=output_names)




@support((7,))
def convert_LayerNormalization(func, opset_version, input_names, output_names, context):
    """Layer normalization of (batch, units) rows, as arithmetic at every opset (ONNX's
    LayerNormalization op exists from 17 only); not in onnx_chainer 7.8.1."""
    dtype = numpy.dtype(func.inputs[0].dtype)
    x, gamma, beta = input_names
    gb = onnx_helper.GraphBuilder()
    centred = gb.op('Sub', [x, gb.axes_op('ReduceMean', [x], [1], keepdims=1)])
    var = gb.axes_op('ReduceMean', [gb.op('Mul', [centred, centred])], [1], keepdims=1)
    std = gb.op('Sqrt', [gb.op('Add', [var, gb.const(numpy.array(func.eps, dtype=dtype))])])
    gb.op('Add', [gb.op('Mul', [gb.op('Div', [centred, std]), gamma]), beta])
    return gb.nodes(output_names=output_names)
