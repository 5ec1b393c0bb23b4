"""Converters of activation functions (ReLU, Sigmoid, Softmax, ...)."""
import numpy

from minichainer.onnx import onnx_helper
from minichainer.onnx.functions.opset_version import support


def _softmax(op_type, func, opset_version, input_names, output_names):
    # Chainer normalizes along one axis.  Softmax-13 does too; before 13 ONNX coerces
    # the input to 2-D at `axis` (normalizing over all the following axes), which is the
    # same only for the last axis: otherwise move the axis last and back.
    axis = func.axis
    ndim = len(func.inputs[0].shape)
    if axis < 0:
        axis += ndim
    if opset_version >= 13 or axis == ndim - 1:
        return onnx_helper.make_node(op_type, input_names, output_names, axis=axis),
    gb = onnx_helper.GraphBuilder()
    perm = list(range(ndim))
    perm[axis], perm[-1] = perm[-1], perm[axis]
    moved = gb.op('Transpose', input_names, perm=perm)
    out = gb.op(op_type, [moved], axis=ndim - 1)
    gb.op('Transpose', [out], perm=perm)
    return gb.nodes(output_names=output_names)


def _input_dtype(func, index=0):
    return numpy.dtype(func.inputs[index].dtype)


@support((6, 11))
def convert_ClippedReLU(func, opset_version, input_names, output_names, context):
    if opset_version < 11:
        return onnx_helper.make_node('Clip', input_names, output_names, min=0.0,
                                     max=float(func.cap)),
    dtype = _input_dtype(func)
    lower = context.add_const(numpy.array(0, dtype=dtype), 'zero')
    upper = context.add_const(numpy.array(func.cap, dtype=dtype), 'clip_z')
    return onnx_helper.make_node('Clip', list(input_names) + [lower, upper],
                                 output_names),


@support((6,))
def convert_ELU(func, opset_version, input_names, output_names, context):
    return onnx_helper.make_node('Elu', input_names, output_names,
                                 alpha=float(func.alpha)),


@support((6,))
def convert_HardSigmoid(func, opset_version, input_names, output_names, context):
    return onnx_helper.make_node('HardSigmoid', input_names, output_names, alpha=0.2,
                                 beta=0.5),


@support((6,))
def convert_LeakyReLU(func, opset_version, input_names, output_names, context):
    return onnx_helper.make_node('LeakyRelu', input_names, output_names,
                                 alpha=float(func.slope)),


@support((1, 13))
def convert_LogSoftmax(func, opset_version, input_names, output_names, context):
    return _softmax('LogSoftmax', func, opset_version, input_names, output_names)


@support((7,))
def convert_PReLUFunction(func, opset_version, input_names, output_names, context):
    # Chainer's W covers the axes after the batch axis (W.shape == x.shape[1:1+W.ndim]);
    # ONNX broadcasts from the right, so W gets trailing unit axes where it is shorter.
    x_ndim = len(func.inputs[0].shape)
    w_shape = tuple(func.inputs[1].shape)
    missing = x_ndim - 1 - len(w_shape)
    if missing <= 0:
        return onnx_helper.make_node('PRelu', input_names, output_names),
    gb = onnx_helper.GraphBuilder()
    shape = gb.const(numpy.array(w_shape + (1,) * missing, dtype=numpy.int64))
    w = gb.op('Reshape', [input_names[1], shape])
    gb.op('PRelu', [input_names[0], w])
    return gb.nodes(output_names=output_names)


@support((6,))
def convert_ReLU(func, opset_version, input_names, output_names, context):
    return onnx_helper.make_node('Relu', input_names, output_names),


@support((6,))
def convert_Selu(func, opset_version, input_names, output_names, context):
    return onnx_helper.make_node('Selu', input_names, output_names,
                                 alpha=float(func.alpha), gamma=float(func.scale)),


@support((6,))
def convert_Sigmoid(func, opset_version, input_names, output_names, context):
    return onnx_helper.make_node('Sigmoid', input_names, output_names),


@support((1, 13))
def convert_Softmax(func, opset_version, input_names, output_names, context):
    return _softmax('Softmax', func, opset_version, input_names, output_names)


@support((1,))
def convert_Softplus(func, opset_version, input_names, output_names, context):
    # Chainer's softplus(x, beta) = log(1 + exp(beta * x)) / beta; ONNX's has beta 1
    beta = float(getattr(func, 'beta', 1.0))
    if beta == 1.0:
        return onnx_helper.make_node('Softplus', input_names, output_names),
    dtype = _input_dtype(func)
    gb = onnx_helper.GraphBuilder()
    scaled = gb.op('Mul', [input_names[0], gb.const(numpy.array(beta, dtype=dtype))])
    soft = gb.op('Softplus', [scaled])
    gb.op('Div', [soft, gb.const(numpy.array(beta, dtype=dtype))])
    return gb.nodes(output_names=output_names)


@support((6,))
def convert_Tanh(func, opset_version, input_names, output_names, context):
    return onnx_helper.make_node('Tanh', input_names, output_names),


@support((7,))
def convert_LSTM(func, opset_version, input_names, output_names, context):
    """The LSTM unit `c, h = lstm(c_prev, x)` (not in onnx_chainer 7.8.1): the gates
    `a, i, f, o` are interleaved along axis 1 of `x`, taken with a reshape to
    (batch, units, 4, ...) and one Gather each; any batch size."""
    c_shape = tuple(func.inputs[0].shape)
    x_shape = tuple(func.inputs[1].shape)
    if x_shape[0] != c_shape[0]:
        raise NotImplementedError(
            'LSTM: only x and c_prev of the same batch size are exportable, got {} and {}'
            .format(x_shape[0], c_shape[0]))
    c_prev, x = input_names
    units = c_shape[1]
    gb = onnx_helper.GraphBuilder()
    shape = gb.const(numpy.array((0, units, 4) + x_shape[2:], dtype=numpy.int64))
    gates = gb.op('Reshape', [x, shape])
    a, i, f, o = [gb.op('Gather', [gates, gb.const(numpy.array(k, dtype=numpy.int64))],
                        axis=2) for k in range(4)]
    a = gb.op('Tanh', [a])
    i, f, o = [gb.op('Sigmoid', [g]) for g in (i, f, o)]
    c = gb.op_output_named('Add', [gb.op('Mul', [a, i]), gb.op('Mul', [f, c_prev])],
                           [output_names[0]])
    gb.op_output_named('Mul', [o, gb.op('Tanh', [c])], [output_names[1]])
    return gb.nodes()


@support((7,))
def convert_Swish(func, opset_version, input_names, output_names, context):
    """`x * sigmoid(beta * x)`, `beta` covering the axes after the batch axis (not in
    onnx_chainer 7.8.1)."""
    x_ndim = len(func.inputs[0].shape)
    beta_shape = tuple(func.inputs[1].shape)
    gb = onnx_helper.GraphBuilder()
    beta = input_names[1]
    missing = x_ndim - 1 - len(beta_shape)
    if missing > 0:
        beta = gb.op('Reshape', [beta, gb.const(numpy.array(beta_shape + (1,) * missing,
                                                            dtype=numpy.int64))])
    gate = gb.op('Sigmoid', [gb.op('Mul', [input_names[0], beta])])
    gb.op('Mul', [input_names[0], gate])
    return gb.nodes(output_names=output_names)


@support((7,))
def convert_CReLU(func, opset_version, input_names, output_names, context):
    """`concat((relu(x), relu(-x)), axis)` (not in onnx_chainer 7.8.1)."""
    axis = func.axis % len(func.inputs[0].shape)
    gb = onnx_helper.GraphBuilder()
    positive = gb.op('Relu', input_names)
    negative = gb.op('Relu', [gb.op('Neg', input_names)])
    gb.op('Concat', [positive, negative], axis=axis)
    return gb.nodes(output_names=output_names)


@support((6,))
def convert_RReLU(func, opset_version, input_names, output_names, context):
    """Test-mode randomized leaky ReLU: the slope is `(lower + upper) / 2` (not in
    onnx_chainer 7.8.1); its train mode draws slopes at random and is refused."""
    import minichainer
    if minichainer.config.train:
        raise NotImplementedError('RReLU: the train mode (random slopes) is not exportable; '
                                  'export with train=False')
    return onnx_helper.make_node('LeakyRelu', input_names, output_names,
                                 alpha=float((func.lower + func.upper) / 2)),
