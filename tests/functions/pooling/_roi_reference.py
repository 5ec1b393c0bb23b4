"""Loop-per-bin NumPy references of the ROI functions and shared test inputs."""
import itertools
import math

import numpy


def pair(v):
    return tuple(v) if isinstance(v, tuple) else (v, v)


def distinct_x(shape, seed=0, dtype=numpy.float32):
    """Values with gaps of 2 / size, so max-based functions have no ties."""
    rng = numpy.random.RandomState(seed)
    x = rng.permutation(int(numpy.prod(shape))).reshape(shape)
    return (2. * x / x.size - 1).astype(dtype)


# Boxes (y_min, x_min, y_max, x_max) inside, across and outside a 7 x 9 map.
ROIS = numpy.array([[1, 1, 6, 6], [0.6, 2.2, 5.3, 8.4], [3, 3, 3, 3],
                    [-4, -3, 2.5, 3.7], [5, 7, 14, 17], [12, 13, 20, 20]], numpy.float32)
ROI_INDICES = numpy.array([0, 1, 1, 0, 1, 0], numpy.int32)

# (outsize, spatial_scale, dtype) cases of the quantized pooling functions.
POOLING_CASES = list(itertools.product([(3, 4), (2, 2), (5, 7)], [0.6, 1.0, 0.5],
                                       [numpy.float16, numpy.float32, numpy.float64]))


def _quantized_bins(start, size, out, limit):
    stride = size / out
    for p in range(out):
        lo = min(max(int(math.floor(p * stride)) + start, 0), limit)
        hi = min(max(int(math.ceil((p + 1) * stride)) + start, 0), limit)
        yield p, lo, hi


def quantized_pool(x, boxes, batch, outsize, scale, op, inclusive, empty):
    """ROI pooling on rounded integer bins; ``op`` reduces an (n_pixels, c) array."""
    outh, outw = pair(outsize)
    _, c, h, w = x.shape
    y = numpy.full((len(boxes), c, outh, outw), empty, numpy.float64)
    for r, (box, b) in enumerate(zip(boxes, batch)):
        y0, x0, y1, x1 = [int(round(float(v) * scale)) for v in box]
        extra = 1 if inclusive else 0
        size_h = max(y1 - y0 + extra, 1)
        size_w = max(x1 - x0 + extra, 1)
        for i, ylo, yhi in _quantized_bins(y0, size_h, outh, h):
            for j, xlo, xhi in _quantized_bins(x0, size_w, outw, w):
                if yhi > ylo and xhi > xlo:
                    win = x[int(b), :, ylo:yhi, xlo:xhi].reshape(c, -1).T
                    y[r, :, i, j] = op(win.astype(numpy.float64), axis=0)
    return y


def _bilinear(plane, yy, xx):
    """Value of ``plane`` (c, h, w) at (yy, xx) by ROIAlign's rule, or None if outside."""
    h, w = plane.shape[1:]
    if yy < -1 or yy > h or xx < -1 or xx > w:
        return None
    yy = min(max(yy, 0.), h - 1.)
    xx = min(max(xx, 0.), w - 1.)
    ylo, xlo = int(math.floor(yy)), int(math.floor(xx))
    yhi, xhi = min(ylo + 1, h - 1), min(xlo + 1, w - 1)
    ly, lx = yy - ylo, xx - xlo
    return ((1 - ly) * (1 - lx) * plane[:, ylo, xlo] + (1 - ly) * lx * plane[:, ylo, xhi]
            + ly * (1 - lx) * plane[:, yhi, xlo] + ly * lx * plane[:, yhi, xhi])


def align(x, boxes, batch, outsize, scale, sampling_ratio, reduce):
    """ROIAlign; ``reduce`` is 'avg' or 'max' over the bilinear samples of a bin."""
    outh, outw = pair(outsize)
    sr_h, sr_w = pair(sampling_ratio)
    c = x.shape[1]
    y = numpy.empty((len(boxes), c, outh, outw), numpy.float64)
    for r, (box, b) in enumerate(zip(boxes, batch)):
        plane = x[int(b)].astype(numpy.float64)
        y0, x0, y1, x1 = [float(v) * scale for v in box]
        rh, rw = max(y1 - y0, 1.), max(x1 - x0, 1.)
        gh = sr_h if sr_h is not None else int(math.ceil(rh / outh))
        gw = sr_w if sr_w is not None else int(math.ceil(rw / outw))
        for i in range(outh):
            for j in range(outw):
                samples = []
                for iy in range(gh):
                    for ix in range(gw):
                        v = _bilinear(plane, y0 + (i + (iy + .5) / gh) * rh / outh,
                                      x0 + (j + (ix + .5) / gw) * rw / outw)
                        if v is not None:
                            samples.append(v)
                if reduce == 'avg':
                    y[r, :, i, j] = sum(samples, numpy.zeros(c)) / (gh * gw)
                else:
                    y[r, :, i, j] = numpy.max(samples, axis=0) if samples else -numpy.inf
    return y


def check_roi_grads(func, x, n_rois, outsize, double=True, **tol):
    """check_backward (and check_double_backward) of ``func(x)`` w.r.t. ``x`` only."""
    from minichainer import gradient_check
    outh, outw = pair(outsize)
    rng = numpy.random.RandomState(3)
    shape = (n_rois, x.shape[1], outh, outw)
    gy = rng.uniform(-1, 1, shape).astype(x.dtype)
    ggx = rng.uniform(-1, 1, x.shape).astype(x.dtype)
    gradient_check.check_backward(func, x, gy, **tol)
    if double:
        gradient_check.check_double_backward(func, x, gy, ggx, **tol)


# A small fixed case whose outputs were computed once with Chainer 7.8.1.
CHAINER_X = ((numpy.arange(2 * 2 * 5 * 6) * 7) % 31).astype(numpy.float32).reshape(
    2, 2, 5, 6) / 10.
CHAINER_ROIS = numpy.array([[0.4, 1.2, 3.7, 4.9], [-1.5, 2., 6.5, 7.], [1., 1., 1., 1.]],
                           numpy.float32)
CHAINER_ROI_INDICES = numpy.array([1, 0, 1], numpy.int32)
