"""ONNX converters of the pooling functions (onnx_chainer's `functions/pooling.py`):
average and max pooling (2-D and N-D, `cover_all`, `pad_value=None`), unpooling (2-D and
N-D, any stride, padding and `outsize`, exactly), `roi_pooling_2d` and (beyond
onnx_chainer) `roi_average_align_2d`.

ONNX Runtime 1.32 has no kernels for MaxRoiPool-22 and RoiAlign-22: from opset 22 the
two ROI functions are exported as compositions of elementwise ops, reductions and
matrix products that compute minichainer's values exactly (and run everywhere).
"""
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
    pads = _cover_all_pads(ksize, stride, pad, func.cover_all)
    ndim = len(ksize)
    e = _Emitter(opset_version, context)
    x = input_names[0]
    if any(p >= k for p, k in zip(pads, ksize + ksize)):
        # some window lies in the padding only, where Chainer's maximum is -inf; ONNX
        # Runtime refuses a pad as wide as the window: pad with -inf explicitly
        # (Chainer's cover_all end padding p + s - 1 reaches that width when s > k - p)
        full = [0, 0] + pads[:ndim] + [0, 0] + pads[ndim:]
        if opset_version < 11:
            x = e.op('Pad', [x], mode='constant', pads=full, value=float('-inf'))
        else:
            ninf = e.const(numpy.array(-numpy.inf, dtype=func.inputs[0].dtype), 'ninf')
            x = e.op('Pad', [x, e.ints(full, 'pads'), ninf], mode='constant')
        padded = [0] * (2 * ndim)
        y = e.op('MaxPool', [x], kernel_shape=ksize, strides=stride, pads=padded)
        # ONNX Runtime starts its maximum at the lowest float, not -inf: add -inf where
        # a window covers padding only (known from the shapes), 0 elsewhere
        e.op('Add', [y, e.const(_padding_only_mask(func.inputs[0].shape[2:], ksize, stride,
                                                   pads, func.inputs[0].dtype), 'ninf_mask')])
        return e.nodes(output_names)
    e.op('MaxPool', [x], kernel_shape=ksize, strides=stride, pads=pads)
    return e.nodes(output_names)


def _padding_only_mask(size, ksize, stride, pads, dtype):
    """(1, 1, out...) array: -inf at the windows lying in the padding only, else 0."""
    ndim = len(ksize)
    axes = []
    for d, (n, k, s) in enumerate(zip(size, ksize, stride)):
        begin, end = pads[d], pads[ndim + d]
        out = (n + begin + end - k) // s + 1
        start = numpy.arange(out) * s
        axes.append((start + k <= begin) | (start >= begin + n))
    grid = numpy.zeros([1, 1] + [len(a) for a in axes], dtype=bool)
    for d, a in enumerate(axes):
        grid |= a.reshape([1, 1] + [-1 if i == d else 1 for i in range(ndim)])
    return numpy.where(grid, -numpy.inf, 0).astype(dtype)


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
    outh, outw = int(func.outh), int(func.outw)
    if opset_version >= 22:
        # ONNX Runtime has no MaxRoiPool-22 kernel: the same bins by masks
        return _roi_max_pooling_by_masks(func, opset_version, input_names, output_names,
                                         context)
    warnings.warn(
        'roi_pooling_2d is exported as ONNX MaxRoiPool, whose runtimes may differ from '
        'Chainer: e.g. ONNX Runtime gives max(output, 0) where a bin\'s inputs are '
        'all negative; check the outputs (from opset 22 it is exported exactly, as a '
        'composition of masks).', UserWarning)
    e = _Emitter(opset_version, context)
    e.op('MaxRoiPool', input_names, pooled_shape=[outh, outw],
         spatial_scale=float(func.spatial_scale))
    return e.nodes(output_names)


def _roi_max_pooling_by_masks(func, opset_version, input_names, output_names, context):
    """ROIPooling2D with elementwise ops and reductions: each ROI's bins along a spatial
    axis are masks over that axis ((R, bins, size), computed in the graph from the
    ROIs, in float64 as minichainer's forward); the maximum is taken over the columns,
    then over the rows, and an empty bin gives 0. Memory: R * C * H * outw * W."""
    x, rois = input_names
    _, _, height, width = func.inputs[0].shape
    outh, outw = int(func.outh), int(func.outw)
    dtype = func.inputs[0].dtype
    e = _Emitter(opset_version, context)
    f64 = numpy.float64
    r = e.cast(rois, f64)
    batch = e.cast(e.slice(r, [0], [1], [1]), numpy.int64)                  # (R, 1)
    corners = e.op('Round', [e.op('Mul', [e.slice(r, [1], [5], [1]),
                                          e.const(numpy.array(func.spatial_scale, f64),
                                                  'scale')])])          # (R, 4)
    one = e.const(numpy.array(1, f64), 'one')

    def masks(axis, bins, limit):
        start = e.slice(corners, [axis], [axis + 1], [1])                # (R, 1)
        end = e.slice(corners, [axis + 2], [axis + 3], [1])
        size = e.op('Max', [e.op('Add', [e.op('Sub', [end, start]), one]), one])
        stride = e.op('Div', [size, e.const(numpy.array(bins, f64), 'bins')])
        p = e.const(numpy.arange(bins, dtype=f64).reshape(1, bins), 'p')
        lo = e.op('Add', [e.op('Floor', [e.op('Mul', [p, stride])]), start])   # (R, bins)
        hi = e.op('Add', [e.op('Ceil', [e.op('Mul', [e.op('Add', [p, one]), stride])]),
                          start])
        zero = e.const(numpy.array(0, f64), 'zero')
        lim = e.const(numpy.array(limit, f64), 'limit')
        lo = e.op('Min', [e.op('Max', [lo, zero]), lim])
        hi = e.op('Min', [e.op('Max', [hi, zero]), lim])
        pos = e.const(numpy.arange(limit, dtype=f64).reshape(1, 1, limit), 'pos')
        lo3 = e.unsqueeze(lo, [2])
        hi3 = e.unsqueeze(hi, [2])
        inside = e.op('And', [e.op('Not', [e.op('Less', [pos, lo3])]),
                              e.op('Less', [pos, hi3])])                # (R, bins, limit)
        return inside, e.op('Less', [lo, hi])                             # (R, bins)

    in_w, some_w = masks(0, outw, width)
    in_h, some_h = masks(1, outh, height)
    ninf = e.const(numpy.array(-numpy.inf, dtype), 'ninf')
    xr = e.op('Gather', [x, e.squeeze(batch, [1])], axis=0)                # (R, C, H, W)
    # over the columns: (R, 1, 1, outw, W) x (R, C, H, 1, W) -> (R, C, H, outw)
    a = e.op('Where', [e.unsqueeze(in_w, [1, 2]), e.unsqueeze(xr, [3]), ninf])
    t = e.reduce('ReduceMax', a, [4], False)
    # over the rows: (R, 1, outh, H, 1) x (R, C, 1, H, outw) -> (R, C, outh, outw)
    b = e.op('Where', [e.unsqueeze(in_h, [1, 4]), e.unsqueeze(t, [2]), ninf])
    y = e.reduce('ReduceMax', b, [3], False)
    nonempty = e.op('And', [e.unsqueeze(some_h, [2]), e.unsqueeze(some_w, [1])])
    zero = e.const(numpy.array(0, dtype), 'zero')
    e.op('Where', [e.unsqueeze(nonempty, [1]), y, zero])
    return e.nodes(output_names)


@support(_from(10))
def convert_ROIAverageAlign2D(func, opset_version, input_names, output_names, context):
    # Chainer's ROIAlign (samples clamped as Caffe2's, no half-pixel offset, ROIs at
    # least one pixel wide) is ONNX RoiAlign's 'output_half_pixel' mode, the only mode
    # of RoiAlign-10; Chainer's boxes are (y_min, x_min, y_max, x_max), ONNX's
    # (x1, y1, x2, y2)
    ratio = func.sampling_ratio
    ratios = set(ratio) if isinstance(ratio, (tuple, list)) else {ratio}
    if len(ratios) > 1:
        raise ValueError('ROIAverageAlign2D: ONNX RoiAlign has one sampling_ratio for both '
                         'axes, got {}'.format(ratio))
    ratio = ratios.pop()
    if opset_version >= 22:
        # ONNX Runtime has no RoiAlign-22 kernel: the same sampling as matrices
        return _roi_align_by_matrices(func, ratio, opset_version, input_names,
                                      output_names, context)
    x, rois, roi_indices = input_names
    e = _Emitter(opset_version, context)
    boxes = e.op('Gather', [rois, e.const(numpy.array([1, 0, 3, 2], numpy.int64), 'xy')],
                 axis=1)
    attrs = {'mode': 'avg', 'output_height': int(func.outh),
             'output_width': int(func.outw), 'sampling_ratio': int(ratio or 0),
             'spatial_scale': float(func.spatial_scale)}
    if opset_version >= 16:
        attrs['coordinate_transformation_mode'] = 'output_half_pixel'
    e.op('RoiAlign', [x, boxes, e.cast(roi_indices, numpy.int64)], **attrs)
    return e.nodes(output_names)


def _roi_align_by_matrices(func, ratio, opset_version, input_names, output_names, context):
    """ROIAverageAlign2D as two batched matrix products: bilinear sampling is separable,
    so each ROI's average over its bin's samples is `My @ x[b] @ Mx.T` with `My`
    (outh, H) and `Mx` (outw, W) holding the summed tap weights of the samples of each
    bin divided by their number (computed in the graph from the ROIs, in float64 as
    minichainer's forward; a sample outside [-1, size] weighs nothing, one in [-1, 0)
    or [size - 1, size] reads the border pixel)."""
    x, rois, roi_indices = input_names
    height, width = func.inputs[0].shape[2:]
    dtype = func.inputs[0].dtype
    f64 = numpy.float64
    e = _Emitter(opset_version, context)

    def c(value, name):
        return e.const(numpy.array(value, f64), name)

    r = e.op('Mul', [e.cast(rois, f64), c(func.spatial_scale, 'scale')])   # (R, 4)
    zero, one, half = c(0, 'zero'), c(1, 'one'), c(0.5, 'half')

    def matrix(axis, out, limit):
        start = e.unsqueeze(e.slice(r, [axis], [axis + 1], [1]), [2])          # (R, 1, 1)
        end = e.unsqueeze(e.slice(r, [axis + 2], [axis + 3], [1]), [2])
        size = e.op('Max', [e.op('Sub', [end, start]), one])
        bin_size = e.op('Div', [size, c(out, 'out')])
        if ratio is None:
            grid = e.op('Ceil', [bin_size])                                    # (R, 1, 1)
            n = e.op('ReduceMax', [grid], keepdims=0)                         # scalar
            i = e.op('Range', [zero, n, one])                                  # (G,)
        else:
            grid = c(ratio, 'grid')
            i = c(numpy.arange(ratio, dtype=f64), 'i')
        p = c(numpy.arange(out, dtype=f64).reshape(1, out, 1), 'p')
        coords = e.op('Add', [
            e.op('Add', [start, e.op('Mul', [p, bin_size])]),
            e.op('Div', [e.op('Mul', [e.op('Add', [i, half]), bin_size]), grid])])
        # coords: (R, out, G)
        lim = c(limit, 'limit')
        valid = e.op('And', [
            e.op('And', [e.op('Not', [e.op('Less', [coords, c(-1, 'minus_one')])]),
                         e.op('Not', [e.op('Greater', [coords, lim])])]),
            e.op('Less', [i, grid])])
        low = e.op('Floor', [coords])
        low = e.op('Where', [e.op('Equal', [low, lim]), e.op('Sub', [low, one]), low])
        high = e.op('Add', [low, one])
        last = c(limit - 1, 'last')
        pc = e.op('Where', [e.op('Not', [e.op('Greater', [low, c(-1, 'minus_one_')])]), zero,
                            e.op('Where', [e.op('Less', [high, lim]), coords, last])])
        validf = e.cast(valid, f64)
        w_low = e.op('Mul', [e.op('Mul', [e.op('Sub', [high, pc]),
                                          e.cast(e.op('Not', [e.op('Less', [low, zero])]),
                                                 f64)]), validf])
        w_high = e.op('Mul', [e.op('Mul', [e.op('Sub', [pc, low]),
                                           e.cast(e.op('Not', [e.op('Greater',
                                                                    [high, last])]), f64)]),
                              validf])
        pos = c(numpy.arange(limit, dtype=f64).reshape(1, 1, 1, limit), 'pos')
        taps = e.op('Add', [
            e.op('Mul', [e.unsqueeze(w_low, [3]),
                         e.cast(e.op('Equal', [pos, e.unsqueeze(low, [3])]), f64)]),
            e.op('Mul', [e.unsqueeze(w_high, [3]),
                         e.cast(e.op('Equal', [pos, e.unsqueeze(high, [3])]), f64)])])
        summed = e.reduce('ReduceSum', taps, [2], False)                      # (R, out, limit)
        return e.cast(e.op('Div', [summed, grid]), dtype)

    my = matrix(0, int(func.outh), height)                                     # (R, outh, H)
    mx = matrix(1, int(func.outw), width)                                      # (R, outw, W)
    xr = e.op('Gather', [x, e.cast(roi_indices, numpy.int64)], axis=0)       # (R, C, H, W)
    t = e.op('MatMul', [e.unsqueeze(my, [1]), xr])                           # (R, C, outh, W)
    e.op('MatMul', [t, e.unsqueeze(e.op('Transpose', [mx], perm=[0, 2, 1]), [1])])
    return e.nodes(output_names)
