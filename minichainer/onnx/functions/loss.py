"""Converter of softmax cross entropy."""
import numpy

from minichainer.onnx import onnx_helper
from minichainer.onnx.functions.opset_version import support


@support((7,))
def convert_SoftmaxCrossEntropy(func, opset_version, input_names, output_names, context):
    """`softmax_cross_entropy(x, t)` for 2-D `x` (batch, classes), every option of
    Chainer's: `normalize`, `ignore_label`, `class_weight`, `reduce='mean'/'no'`.

    The one-hot of `t` is `Equal(t[:, None], arange(classes))`, so no OneHot (opset 9)
    is needed; ignored labels get a zero loss and do not count in the mean.
    """
    x_shape = tuple(func.inputs[0].shape)
    if getattr(func, 'soft_target', False):
        raise NotImplementedError('SoftmaxCrossEntropy: soft targets (t of the shape of x) '
                                  'are not exportable')
    if len(x_shape) != 2:
        raise NotImplementedError(
            'SoftmaxCrossEntropy: only a 2-D x (batch, classes) is exportable, got shape {}'
            .format(x_shape))
    n_class = x_shape[1]
    x_dtype = numpy.dtype(func.inputs[0].dtype)
    t_dtype = numpy.dtype(func.inputs[1].dtype)
    if t_dtype not in (numpy.int32, numpy.int64):
        t_dtype = numpy.dtype(numpy.int64)
    x, t = input_names[0], input_names[1]
    reduce = getattr(func, 'reduce', 'mean')
    ignore_label = int(getattr(func, 'ignore_label', -1))
    gb = onnx_helper.GraphBuilder()
    if numpy.dtype(func.inputs[1].dtype) != t_dtype:
        t = gb.op('Cast', [t], to=onnx_helper.onnx.helper.np_dtype_to_tensor_dtype(t_dtype))
    log_y = gb.op('LogSoftmax', [x], axis=1)
    class_weight = getattr(func, 'class_weight', None)
    if class_weight is not None:
        log_y = gb.op('Mul', [log_y, gb.const(numpy.asarray(class_weight, dtype=x_dtype))])
    t_column = gb.axes_op('Unsqueeze', [t], [1], opset_version)
    classes = gb.const(numpy.arange(n_class, dtype=t_dtype))
    one_hot = gb.op('Cast', [gb.op('Equal', [t_column, classes])],
                    to=onnx_helper.onnx.helper.np_dtype_to_tensor_dtype(x_dtype))
    picked = gb.axes_op('ReduceSum', [gb.op('Mul', [log_y, one_hot])], [1], opset_version,
                        keepdims=0)
    loss = gb.op('Neg', [picked])     # a label outside [0, classes) matches no class: 0
    to_x = onnx_helper.onnx.helper.np_dtype_to_tensor_dtype(x_dtype)
    valid = gb.op('Cast', [gb.op('Not', [gb.op('Equal', [
        t, gb.const(numpy.array(ignore_label, dtype=t_dtype))])])], to=to_x)
    if 0 <= ignore_label < n_class:
        loss = gb.op('Mul', [loss, valid])
    if reduce == 'no':
        gb.op('Identity', [loss])
        return gb.nodes(output_names=output_names)
    total = gb.axes_op('ReduceSum', [loss], [0], opset_version, keepdims=0)
    if getattr(func, 'normalize', True):
        count = gb.axes_op('ReduceSum', [valid], [0], opset_version, keepdims=0)
        count = gb.op('Max', [count, gb.const(numpy.array(1, dtype=x_dtype))])
    else:
        batch = gb.op('Cast', [gb.op('Gather', [gb.op('Shape', [x]),
                                                gb.const(numpy.array(0, dtype=numpy.int64))],
                                     axis=0)],
                      to=onnx_helper.onnx.helper.np_dtype_to_tensor_dtype(x_dtype))
        count = batch
    gb.op('Div', [total, count])
    return gb.nodes(output_names=output_names)


def _difference(gb, input_names):
    return gb.op('Sub', list(input_names[:2]))


@support((7,))
def convert_MeanSquaredError(func, opset_version, input_names, output_names, context):
    """`mean((x0 - x1) ** 2)` (not in onnx_chainer 7.8.1)."""
    gb = onnx_helper.GraphBuilder()
    d = _difference(gb, input_names)
    gb.axes_op('ReduceMean', [gb.op('Mul', [d, d])], None, keepdims=0,
               output_names=output_names)
    return gb.nodes()


@support((7,))
def convert_SquaredError(func, opset_version, input_names, output_names, context):
    """`(x0 - x1) ** 2` elementwise."""
    gb = onnx_helper.GraphBuilder()
    d = _difference(gb, input_names)
    gb.op('Mul', [d, d])
    return gb.nodes(output_names=output_names)


@support((7,))
def convert_MeanAbsoluteError(func, opset_version, input_names, output_names, context):
    """`mean(|x0 - x1|)`."""
    gb = onnx_helper.GraphBuilder()
    gb.axes_op('ReduceMean', [gb.op('Abs', [_difference(gb, input_names)])], None,
               keepdims=0, output_names=output_names)
    return gb.nodes()


@support((7,))
def convert_AbsoluteError(func, opset_version, input_names, output_names, context):
    """`|x0 - x1|` elementwise."""
    gb = onnx_helper.GraphBuilder()
    gb.op('Abs', [_difference(gb, input_names)])
    return gb.nodes(output_names=output_names)


@support((7,))
def convert_HuberLoss(func, opset_version, input_names, output_names, context):
    """Huber loss `0.5 * (d**2 - max(d - delta, 0)**2)` with `d = |x - t|`, summed along
    axis 1 unless `reduce='no'`."""
    dtype = numpy.dtype(func.inputs[0].dtype)
    gb = onnx_helper.GraphBuilder()
    d = gb.op('Abs', [_difference(gb, input_names)])
    over = gb.op('Relu', [gb.op('Sub', [d, gb.const(numpy.array(func.delta, dtype=dtype))])])
    y = gb.op('Mul', [gb.op('Sub', [gb.op('Mul', [d, d]), gb.op('Mul', [over, over])]),
                      gb.const(numpy.array(0.5, dtype=dtype))])
    if func.reduce == 'sum_along_second_axis':
        gb.axes_op('ReduceSum', [y], [1], keepdims=0)
    return gb.nodes(output_names=output_names)


@support((7,))
def convert_SigmoidCrossEntropy(func, opset_version, input_names, output_names, context):
    """`sigmoid_cross_entropy(x, t)`: `log(1 + exp(-|x|)) - x * (t - (x >= 0))` per
    element, labels -1 ignored, `normalize` and `reduce` as Chainer's."""
    dtype = numpy.dtype(func.inputs[0].dtype)
    to_x = onnx_helper.onnx.helper.np_dtype_to_tensor_dtype(dtype)
    t_dtype = numpy.dtype(func.inputs[1].dtype)
    x, t = input_names
    gb = onnx_helper.GraphBuilder()
    zero = gb.const(numpy.array(0, dtype=dtype))
    non_negative = gb.op('Cast', [gb.op('Not', [gb.op('Less', [x, zero])])], to=to_x)
    t_float = gb.op('Cast', [t], to=to_x)
    soft = gb.op('Softplus', [gb.op('Neg', [gb.op('Abs', [x])])])
    loss = gb.op('Sub', [soft, gb.op('Mul', [x, gb.op('Sub', [t_float, non_negative])])])
    valid = gb.op('Cast', [gb.op('Not', [gb.op('Equal', [
        t, gb.const(numpy.array(-1, dtype=t_dtype))])])], to=to_x)
    loss = gb.op('Mul', [loss, valid])
    if func.reduce == 'no':
        gb.op('Identity', [loss])
        return gb.nodes(output_names=output_names)
    total = gb.axes_op('ReduceSum', [loss], None, keepdims=0)
    one = gb.const(numpy.array(1, dtype=dtype))
    if func.normalize:
        count = gb.op('Max', [gb.axes_op('ReduceSum', [valid], None, keepdims=0), one])
    else:
        batch = gb.op('Gather', [gb.op('Shape', [x]),
                                 gb.const(numpy.array(0, dtype=numpy.int64))], axis=0)
        count = gb.op('Max', [gb.op('Cast', [batch], to=to_x), one])
    gb.op('Div', [total, count])
    return gb.nodes(output_names=output_names)
