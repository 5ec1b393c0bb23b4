"""ONNX converters of the pooling functions (onnx_chainer's `functions/pooling.py`):
average and max pooling (2-D and N-D, `cover_all`, `pad_value=None`), unpooling (2-D and
N-D, any stride, padding and `outsize`, exactly) and `roi_pooling_2d`."""
import warnings

import numpy

from minichainer.onnx.functions.array import _Emitter
from minichainer.onnx.functions.array import _from
from minichainer.onnx.functions.opset_version import support


def _window(func):
    return ([int(k) for k in func.ksize], [int(s) for s in func.stride],
            [int(p) for p in func.pad])


def _cover_all_pads(ksize, stride, pad, cover_all):
    """ONNX pads for Chainer's window: cover_all adds s - 1 at the end (as im2col)."""
    if cover_all:
        return pad + [p + s - 1 for p, s in zip(pad, stride)]
    return pad + pad


def _average(func, opset_version, input_names, output_names, context):
    ksize, stride, pad = _window(func)
    pad_value = getattr(func, 'pad_value', 0)
    e = _Emitter(opset_version, context)
    e.op('AveragePool', input_names, kernel_shape=ksize, strides=stride,
         pads=_cover_all_pads(ksize, stride, pad, getattr(func, 'cover_all', False)),
         count_include_pad=0 if pad_value is None else 1)
    return e.nodes(output_names)


@support(_from(7))
def convert_AveragePooling2D(func, opset_version, input_names, output_names, context):
    return _average(func, opset_version, input_names, output_names, context)


@support(_from(7))
def convert_AveragePoolingND(func, opset_version, input_names, output_names, context):
    return _average(func, opset_version, input_names, output_names, context)


def _max(func, opset_version, input_names, output_names, context):
    if getattr(func, 'return_indices', False):
        raise ValueError('max pooling with return_indices=True cannot be exported to '
                         'ONNX')
    ksize, stride, pad = _window(func)
    e = _Emitter(opset_version, context)
    attrs = {'kernel_shape': ksize, 'strides': stride}
    if func.cover_all and opset_version >= 10 and any(
            p + s - 1 >= k for p, s, k in zip(pad, stride, ksize)):
        # the extra end padding would reach a whole window (ONNX Runtime refuses
        # pads >= kernel): ceil_mode gives the same output size
        attrs['pads'] = pad + pad
        attrs['ceil_mode'] = 1
    else:
        attrs['pads'] = _cover_all_pads(ksize, stride, pad, func.cover_all)
    e.op('MaxPool', input_names, **attrs)
    return e.nodes(output_names)


@support(_from(7))
def convert_MaxPooling2D(func, opset_version, input_names, output_names, context):
    return _max(func, opset_version, input_names, output_names, context)


@support(_from(7))
def convert_MaxPoolingND(func, opset_version, input_names, output_names, context):
    return _max(func, opset_version, input_names, output_names, context)


def _unpooling(func, outs, opset_version, input_names, output_names, context):
    # Unpooling spreads every input value over its k x k window and adds where windows
    # overlap (col2im): a depthwise ConvTranspose with a kernel of ones, padded at the
    # start by p and at the end so that exactly `outs` remains
    ksize, stride, pad = _window(func)
    x_shape = func.inputs[0].shape
    channels = x_shape[1]
    natural = [s * (d - 1) + k for s, d, k in zip(stride, x_shape[2:], ksize)]
    end = [n - p - o for n, p, o in zip(natural, pad, outs)]
    e = _Emitter(opset_version, context)
    ones = e.const(numpy.ones([channels, 1] + ksize, dtype=func.inputs[0].dtype), 'ones')
    attrs = {'kernel_shape': ksize, 'strides': stride, 'group': int(channels),
             'pads': pad + [max(t, 0) for t in end]}
    if any(t < 0 for t in end):
        attrs['output_padding'] = [max(-t, 0) for t in end]
    e.op('ConvTranspose', [input_names[0], ones], **attrs)
    return e.nodes(output_names)


@support(_from(7))
def convert_Unpooling2D(func, opset_version, input_names, output_names, context):
    return _unpooling(func, [int(func.outh), int(func.outw)], opset_version, input_names,
                      output_names, context)


@support(_from(7))
def convert_UnpoolingND(func, opset_version, input_names, output_names, context):
    return _unpooling(func, [int(o) for o in func.outs], opset_version, input_names,
                      output_names, context)


@support(_from(7))
def convert_ROIPooling2D(func, opset_version, input_names, output_names, context):
    warnings.warn(
        'roi_pooling_2d is exported as ONNX MaxRoiPool, whose runtimes may differ from '
        'Chainer: e.g. ONNX Runtime gives max(output, 0) where a bin\'s inputs are '
        'all negative, and rounds ROI corners in its own way; check the outputs.',
        UserWarning)
    e = _Emitter(opset_version, context)
    e.op('MaxRoiPool', input_names, pooled_shape=[int(func.outh), int(func.outw)],
         spatial_scale=float(func.spatial_scale))
    return e.nodes(output_names)
