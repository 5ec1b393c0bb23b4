"""ONNX converters of the connection functions (onnx_chainer's `functions/connection.py`):
convolutions (2-D, N-D, dilated, grouped, `cover_all`), deconvolutions (any `outsize`),
`linear` and `embed_id` (with `ignore_label`)."""
import numpy

from minichainer.onnx.functions.array import _Emitter
from minichainer.onnx.functions.array import _from
from minichainer.onnx.functions.opset_version import support


def _conv_attrs(func, w_shape):
    ndim = len(w_shape) - 2
    stride = [int(s) for s in func.stride]
    pad = [int(p) for p in func.pad]
    dilate = [int(d) for d in getattr(func, 'dilate', (1,) * ndim)]
    end = list(pad)
    if getattr(func, 'cover_all', False):
        # Chainer's cover_all pads the end with s - 1 more zeros (im2col does)
        end = [p + s - 1 for p, s in zip(pad, stride)]
    return {'kernel_shape': [int(k) for k in w_shape[2:]], 'pads': pad + end,
            'strides': stride, 'dilations': dilate, 'group': int(func.groups)}


@support(_from(7))
def convert_ConvolutionND(func, opset_version, input_names, output_names, context):
    e = _Emitter(opset_version, context)
    e.op('Conv', input_names, **_conv_attrs(func, func.inputs[1].shape))
    return e.nodes(output_names)


convert_Convolution2DFunction = convert_ConvolutionND


@support(_from(7))
def convert_DeconvolutionND(func, opset_version, input_names, output_names, context):
    x_shape, w_shape = func.inputs[0].shape, func.inputs[1].shape
    ndim = len(w_shape) - 2
    stride = [int(s) for s in func.stride]
    pad = [int(p) for p in func.pad]
    dilate = [int(d) for d in getattr(func, 'dilate', (1,) * ndim)]
    ksize = [int(k) for k in w_shape[2:]]
    outs = func.outs
    if outs is None:
        raise ValueError('DeconvolutionND: the output size is unknown (the function '
                         'has not run forward)')
    # col2im writes the full output s * (in - 1) + dk and keeps [p, p + out): pad the
    # start by p and the end by what is left (onnx_chainer's output_shape would split
    # the crop evenly between both ends)
    natural = [s * (d - 1) + (k - 1) * di + 1
               for s, d, k, di in zip(stride, x_shape[2:], ksize, dilate)]
    end = [n - p - o for n, p, o in zip(natural, pad, outs)]
    attrs = {'kernel_shape': ksize, 'strides': stride, 'dilations': dilate,
             'group': int(func.groups), 'pads': pad + [max(t, 0) for t in end]}
    if any(t < 0 for t in end):
        attrs['output_padding'] = [max(-t, 0) for t in end]
    e = _Emitter(opset_version, context)
    e.op('ConvTranspose', input_names, **attrs)
    return e.nodes(output_names)


convert_Deconvolution2DFunction = convert_DeconvolutionND


@support(_from(7))
def convert_LinearFunction(func, opset_version, input_names, output_names, context):
    e = _Emitter(opset_version, context)
    inputs = list(input_names)
    if len(inputs) == 2 and opset_version < 11:
        # Gemm's C is optional from opset 11 only
        n_out = func.inputs[1].shape[0]
        inputs.append(e.const(numpy.zeros((n_out,), dtype=func.inputs[0].dtype), 'bias'))
    e.op('Gemm', inputs, alpha=1.0, beta=1.0, transA=0, transB=1)
    return e.nodes(output_names)


@support(_from(7))
def convert_EmbedIDFunction(func, opset_version, input_names, output_names, context):
    x, W = input_names
    e = _Emitter(opset_version, context)
    ignore_label = func.ignore_label
    if ignore_label is None:
        e.op('Gather', [W, x], axis=0)
        return e.nodes(output_names)
    # rows of ignore_label are zero: gather row 0 there, then mask
    x_dtype = func.inputs[0].dtype
    label = e.const(numpy.array(ignore_label, dtype=x_dtype), 'ignore_label')
    keep = e.op('Not', [e.op('Equal', [x, label])])
    safe_x = e.op('Mul', [x, e.cast(keep, x_dtype)])
    rows = e.op('Gather', [W, safe_x], axis=0)
    mask = e.unsqueeze(e.cast(keep, func.inputs[1].dtype), [len(func.inputs[0].shape)])
    e.op('Mul', [rows, mask])
    return e.nodes(output_names)
