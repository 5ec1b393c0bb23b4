"""The shared N-D pooling engine: tiled (stride == ksize) and overlapping windows.

The reference is the previous implementation's algorithm (im2col patches, ``argmax``
over them, a scatter of ``gy`` into the columns and ``col2im``), built here from
``minichainer.utils.conv_nd``.
"""
import numpy
import pytest

import minichainer
import minichainer.functions as F
from minichainer import gradient_check
from minichainer.utils import conv_nd
from tests.functions.pooling._helpers import distinct, grad_tolerance


def _reference_max(x, k, s, p, cover_all, gy):
    col = conv_nd.im2col_nd_cpu(x, k, s, p, cover_all=cover_all, pval=-float('inf'))
    n, c = col.shape[:2]
    nd = x.ndim - 2
    outs = col.shape[2 + nd:]
    col = col.reshape((n, c, -1) + outs)
    idx = col.argmax(axis=2)
    y = col.max(axis=2)
    kk = col.shape[2]
    gcol = numpy.zeros((gy.size * kk,), x.dtype)
    gcol[idx.ravel() + numpy.arange(0, gy.size * kk, kk)] = gy.ravel()
    gcol = gcol.reshape((n, c) + outs + tuple(k))
    axes = (0, 1) + tuple(range(2 + nd, 2 + 2 * nd)) + tuple(range(2, 2 + nd))
    gx = conv_nd.col2im_nd_cpu(gcol.transpose(axes), s, p, x.shape[2:])
    return y, gx, idx


def _reference_average(x, k, s, p, gy):
    col = conv_nd.im2col_nd_cpu(x, k, s, p)
    nd = x.ndim - 2
    y = col.mean(axis=tuple(range(2, 2 + nd))).astype(x.dtype, copy=False)
    idx = (slice(None), slice(None)) + (None,) * nd
    gcol = numpy.broadcast_to(gy[idx], gy.shape[:2] + tuple(k) + gy.shape[2:])
    gx = conv_nd.col2im_nd_cpu(gcol, s, p, x.shape[2:])
    gx /= int(numpy.prod(k))
    return y, gx


def _random_cases(seed, count):
    rng = numpy.random.RandomState(seed)
    cases = []
    while len(cases) < count:
        nd = int(rng.randint(1, 4))
        dims = tuple(int(d) for d in rng.randint(1, 7 if nd < 3 else 5, nd))
        k = tuple(int(v) for v in rng.randint(1, 4, nd))
        s = k if rng.rand() < 0.4 else tuple(int(v) for v in rng.randint(1, 4, nd))
        p = tuple(int(v) for v in rng.randint(0, 2, nd))
        if any(kk > d + 2 * pp for kk, d, pp in zip(k, dims, p)):
            continue
        cases.append((dims, k, s, p, bool(rng.rand() < 0.5), int(rng.randint(1 << 30))))
    return cases


def _input(shape, dtype, seed, ties):
    rng = numpy.random.RandomState(seed)
    if ties:  # many equal values per window, as after a ReLU
        return numpy.maximum(rng.randint(-2, 3, shape), 0).astype(dtype)
    return rng.randn(*shape).astype(dtype)


def _pool(kind, x, k, s, p, cover_all):
    nd = x.ndim - 2
    if kind == 'max':
        if nd == 2:
            return F.max_pooling_2d(x, k, s, p, cover_all)
        return F.max_pooling_nd(x, k, s, p, cover_all)
    if nd == 2:
        return F.average_pooling_2d(x, k, s, p)
    return F.average_pooling_nd(x, k, s, p)


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
@pytest.mark.parametrize('case', _random_cases(0, 24))
def test_max_pooling_equals_previous_implementation(case, dtype):
    dims, k, s, p, cover_all, seed = case
    for ties in (False, True):
        x = _input((2, 3) + dims, dtype, seed, ties)
        xv = minichainer.Variable(x)
        y = _pool('max', xv, k, s, p, cover_all)
        gy = numpy.random.RandomState(seed + 1).randn(*y.shape).astype(dtype)
        y.grad = gy
        y.backward()
        y_ref, gx_ref, idx_ref = _reference_max(x, k, s, p, cover_all, gy)
        numpy.testing.assert_array_equal(y.array, y_ref)
        numpy.testing.assert_array_equal(xv.grad, gx_ref)
        assert xv.grad.dtype == dtype
        if len(dims) == 2:
            _, idx = F.max_pooling_2d(x, k, s, p, cover_all, return_indices=True)
        else:
            _, idx = F.max_pooling_nd(x, k, s, p, cover_all, return_indices=True)
        assert idx.dtype == numpy.intp
        numpy.testing.assert_array_equal(idx, idx_ref)


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
@pytest.mark.parametrize('case', _random_cases(1, 16))
def test_average_pooling_equals_previous_implementation(case, dtype):
    dims, k, s, p, _, seed = case
    x = _input((2, 3) + dims, dtype, seed, False)
    xv = minichainer.Variable(x)
    y = _pool('average', xv, k, s, p, False)
    gy = numpy.random.RandomState(seed + 1).randn(*y.shape).astype(dtype)
    y.grad = gy
    y.backward()
    y_ref, gx_ref = _reference_average(x, k, s, p, gy)
    numpy.testing.assert_array_equal(y.array, y_ref)
    numpy.testing.assert_array_equal(xv.grad, gx_ref)


# (shape, ksize, stride, pad, cover_all): tiled exactly, tiled with a ragged edge
# (cover_all and not), tiled with padding, overlapping, strided with gaps
PATHS = [
    ((2, 3, 4, 6), 2, 2, 0, True),
    ((2, 2, 5, 7), 2, 2, 0, True),
    ((2, 2, 5, 7), 2, 2, 0, False),
    ((1, 2, 4, 6), 2, 2, 1, True),
    ((1, 2, 7, 6), 3, 2, 1, True),
    ((1, 2, 7, 6), (2, 3), (3, 1), (0, 1), False),
]


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
@pytest.mark.parametrize('path', PATHS)
def test_max_pooling_2d_gradients(path, dtype):
    shape, k, s, p, cover_all = path
    x = distinct(shape, dtype)
    y = F.max_pooling_2d(x, k, s, p, cover_all)
    gy = numpy.random.RandomState(1).uniform(-1, 1, y.shape).astype(dtype)
    ggx = numpy.random.RandomState(2).uniform(-1, 1, shape).astype(dtype)
    # the eps must stay below half the gap between distinct inputs
    eps = 2e-3 if dtype != numpy.float16 else 1e-2
    f = (lambda v: F.max_pooling_2d(v, k, s, p, cover_all))
    gradient_check.check_backward(f, x, gy, eps=eps, **grad_tolerance(dtype))
    gradient_check.check_double_backward(f, x, gy, ggx, eps=eps, **grad_tolerance(dtype))


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
@pytest.mark.parametrize('path', PATHS[:2] + PATHS[3:])
def test_average_pooling_2d_gradients(path, dtype):
    shape, k, s, p, _ = path
    x = distinct(shape, dtype)
    y = F.average_pooling_2d(x, k, s, p)
    gy = numpy.random.RandomState(1).uniform(-1, 1, y.shape).astype(dtype)
    ggx = numpy.random.RandomState(2).uniform(-1, 1, shape).astype(dtype)
    f = (lambda v: F.average_pooling_2d(v, k, s, p))
    gradient_check.check_backward(f, x, gy, **grad_tolerance(dtype))
    gradient_check.check_double_backward(f, x, gy, ggx, **grad_tolerance(dtype))


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
@pytest.mark.parametrize('path', [((1, 2, 4, 2, 6), 2, 2, 0, True),
                                  ((1, 2, 4, 2, 6), 2, 2, 1, True),
                                  ((1, 2, 5, 4, 4), 3, 2, 1, False)])
def test_pooling_3d_gradients(path, dtype):
    shape, k, s, p, cover_all = path
    x = distinct(shape, dtype)
    gy_shape = F.max_pooling_nd(x, k, s, p, cover_all).shape
    gy = numpy.random.RandomState(1).uniform(-1, 1, gy_shape).astype(dtype)
    eps = 2e-3 if dtype != numpy.float16 else 1e-2
    gradient_check.check_backward(
        lambda v: F.max_pooling_nd(v, k, s, p, cover_all), x, gy, eps=eps, **grad_tolerance(dtype))
    for pad_value in (0, None):
        f = (lambda v: F.average_pooling_nd(v, k, s, p, pad_value=pad_value))
        gy = numpy.random.RandomState(1).uniform(-1, 1, f(x).shape).astype(dtype)
        gradient_check.check_backward(f, x, gy, **grad_tolerance(dtype))


def test_tied_window_routes_the_gradient_to_its_first_maximum():
    x = numpy.zeros((1, 1, 4, 4), numpy.float32)
    x[0, 0, 3, 3] = 1
    for k, s in ((2, 2), (3, 1)):
        xv = minichainer.Variable(x)
        y = F.max_pooling_2d(xv, k, s)
        gy = numpy.ones(y.shape, numpy.float32)
        y.grad = gy
        y.backward()
        _, gx_ref, _ = _reference_max(x, (k, k), (s, s), (0, 0), True, gy)
        numpy.testing.assert_array_equal(xv.grad, gx_ref)
    # tiled 2x2: each all-zero window gives its gradient to its top-left element
    expected = numpy.zeros((4, 4), numpy.float32)
    expected[0, 0] = expected[0, 2] = expected[2, 0] = expected[3, 3] = 1
    xv = minichainer.Variable(x)
    y = F.max_pooling_2d(xv, 2)
    y.grad = numpy.ones(y.shape, numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(xv.grad[0, 0], expected)


def test_nan_window_points_at_its_first_nan_as_argmax_does():
    x = numpy.arange(16, dtype=numpy.float32).reshape(1, 1, 4, 4)
    x[0, 0, 0, 1] = numpy.nan
    x[0, 0, 1, 0] = numpy.nan
    y, idx = F.max_pooling_2d(x, 2, return_indices=True)
    assert numpy.isnan(y.array[0, 0, 0, 0])
    assert idx[0, 0, 0, 0] == 1
    assert idx[0, 0, 1, 1] == 3


def test_float16_maps_whose_maxima_sum_past_float16_raise_no_warning():
    # the NaN test sums the maxima: 4,096 of them at 60,000 overflow float16, which is
    # neither a NaN nor a reason to warn (Chainer's float16 VGG/ResNet/GoogLeNet tests
    # run under `filterwarnings = error`)
    x = numpy.full((1, 4, 128, 128), 60000, dtype=numpy.float16)
    with numpy.errstate(all='raise'):
        y = F.max_pooling_2d(x, 2)
    assert (y.array == 60000).all()
    x[0, 1, 5, 6] = numpy.inf
    x[0, 2, 7, 8] = -numpy.inf
    with numpy.errstate(all='raise'):
        y, idx = F.max_pooling_2d(x, 2, return_indices=True)
    assert y.dtype == numpy.float16
    assert y.array[0, 1, 2, 3] == numpy.inf and y.array[0, 2, 3, 4] == 60000
    assert (y.array[0, 0] == 60000).all() and (idx[0, 0] == 0).all()
    assert idx[0, 2, 3, 4] == 0 and idx[0, 1, 2, 3] == 2
    x[0, 3, 0, 0] = numpy.nan
    with numpy.errstate(all='raise'):
        y, idx = F.max_pooling_2d(x, 2, return_indices=True)
    assert numpy.isnan(y.array[0, 3, 0, 0]) and idx[0, 3, 0, 0] == 0


@pytest.mark.parametrize('func', [
    lambda x, k, s, p: F.max_pooling_2d(x, k, s, p),
    lambda x, k, s, p: F.average_pooling_2d(x, k, s, p),
    lambda x, k, s, p: F.max_pooling_nd(x, k, s, p),
    lambda x, k, s, p: F.average_pooling_nd(x, k, s, p),
])
@pytest.mark.parametrize('args,match', [
    ((0, 1, 0), r'ksize must be positive ints, got \(0, 0\) \(x.shape = \(1, 2, 4, 4\)\)'),
    ((2, 0, 0), r'stride must be positive ints, got \(0, 0\) \(x.shape = \(1, 2, 4, 4\)\)'),
    ((2, 2, -1), r'pad must be non-negative ints, got \(-1, -1\)'),
    ((5, 1, 0), r'ksize \(5, 5\) is larger than the padded input \(x.shape = \(1, 2, 4, 4\), '
                r'pad = \(0, 0\)\)'),
    (((2, 7), 1, (0, 1)), r'ksize \(2, 7\) is larger than the padded input'),
])
def test_bad_window_raises_value_error(func, args, match):
    x = numpy.zeros((1, 2, 4, 4), numpy.float32)
    with pytest.raises(ValueError, match=match):
        func(x, *args)


def test_window_as_large_as_the_padded_input_is_accepted():
    x = numpy.arange(2 * 3 * 3, dtype=numpy.float32).reshape(1, 2, 3, 3)
    y = F.max_pooling_2d(x, 5, 1, 1)
    assert y.shape == (1, 2, 1, 1)
    numpy.testing.assert_array_equal(y.array[0, :, 0, 0], [8, 17])


def test_indexes_attribute_round_trips():
    x = distinct((1, 2, 4, 4), numpy.float32)
    from minichainer.functions.pooling.max_pooling_2d import MaxPooling2D
    func = MaxPooling2D(2)
    y, = func.apply((x,))
    idx = func.indexes
    assert idx.shape == y.shape and idx.dtype == numpy.intp
    func.indexes = numpy.zeros_like(idx)
    numpy.testing.assert_array_equal(func.indexes, 0)


# -- inputs in (c, n, d...) memory order (a convolution's output) ---------------------------

def _channel_major(a):
    return numpy.ascontiguousarray(a.swapaxes(0, 1)).swapaxes(0, 1)


@pytest.mark.parametrize('shape, k, s, p, cover_all', [
    ((3, 4, 6, 6), 2, 2, 0, True),          # tiled, exact
    ((2, 3, 5, 7), 2, 2, 1, True),          # tiled, padded
    ((2, 3, 6, 5), 3, 2, 1, False),         # overlapping
    ((2, 2, 4, 3, 4), 2, 2, 0, True),       # 3-D
])
def test_channel_major_input_same_values_and_layout(shape, k, s, p, cover_all):
    rng = numpy.random.RandomState(9)
    x = rng.randint(-3, 3, shape).astype(numpy.float64)   # ties: first maximum wins
    xc = _channel_major(x)
    nd = len(shape) - 2
    outs = []
    for a in (x, xc):
        v = minichainer.Variable(a)
        y, idx = F.max_pooling_nd(v, k, s, p, cover_all, return_indices=True)
        y.grad = numpy.arange(y.size, dtype=numpy.float64).reshape(y.shape)
        y.backward()
        outs.append((y.array, idx, v.grad))
    for got, expect in zip(outs[1], outs[0]):
        numpy.testing.assert_array_equal(got, expect)
    y, idx, gx = outs[1]
    assert y.swapaxes(0, 1).flags.c_contiguous and gx.swapaxes(0, 1).flags.c_contiguous
    assert idx.flags.c_contiguous and idx.shape == y.shape
    if nd == 2:
        y2, idx2 = F.max_pooling_2d(xc, k, s, p, cover_all, return_indices=True)
        numpy.testing.assert_array_equal(y2.array, outs[0][0])
        numpy.testing.assert_array_equal(idx2, outs[0][1])


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
@pytest.mark.parametrize('k, s, p', [(2, 2, 0), (3, 2, 1)])
def test_channel_major_input_gradients(dtype, k, s, p):
    x = _channel_major(distinct((2, 3, 6, 6), dtype, seed=10))
    rng = numpy.random.RandomState(11)

    def f(x):
        return F.max_pooling_2d(x, k, s, p)

    gy = rng.uniform(-1, 1, f(x).shape).astype(dtype)
    ggx = rng.uniform(-1, 1, x.shape).astype(dtype)
    gradient_check.check_backward(f, x, gy, **grad_tolerance(dtype))
    gradient_check.check_double_backward(f, x, gy, ggx, **grad_tolerance(dtype))



@pytest.mark.parametrize('k, s, p', [(2, 2, 0), (3, 2, 1)])   # exact tiling, overlapping
@pytest.mark.parametrize('layout', ['cropped', 'transposed'])
@pytest.mark.parametrize('channel_major', [False, True])
def test_backward_with_a_strided_gy(k, s, p, layout, channel_major):
    # gy as a convolution's data gradient (a view into a padded buffer) or a linear
    # layer's (batch-major while x is channel-major) gives the same gx
    rng = numpy.random.RandomState(13)
    x = distinct((3, 4, 6, 6), numpy.float64, seed=14)
    if channel_major:
        x = _channel_major(x)
    gy = rng.uniform(-1, 1, F.max_pooling_2d(x, k, s, p).shape)
    if layout == 'cropped':
        buf = numpy.zeros(gy.shape[:2] + (gy.shape[2] + 2, gy.shape[3] + 2))
        buf[:, :, 1:-1, 1:-1] = gy
        strided = buf[:, :, 1:-1, 1:-1]
    else:  # the other memory order than x's
        strided = _channel_major(gy) if not channel_major else numpy.ascontiguousarray(gy)
    grads = []
    for g in (numpy.ascontiguousarray(gy), strided):
        v = minichainer.Variable(x)
        y = F.max_pooling_2d(v, k, s, p)
        y.grad = g
        y.backward()
        grads.append(v.grad)
    numpy.testing.assert_array_equal(grads[1], grads[0])


@pytest.mark.parametrize('func', [F.max_pooling_2d, F.average_pooling_2d])
def test_overlapping_windows_gradient_is_contiguous(func):
    # the gradient is summed straight into x's shape (no padded buffer, no cropped view)
    x = minichainer.Variable(distinct((2, 3, 7, 7), numpy.float64, seed=15))
    y = func(x, 3, 2, 1)
    y.grad = numpy.ones(y.shape)
    y.backward()
    assert x.grad.flags.c_contiguous


def test_channel_major_indexes_can_be_set():
    x = _channel_major(numpy.arange(2 * 3 * 4 * 4, dtype=numpy.float32).reshape(2, 3, 4, 4))
    func = F.pooling.max_pooling_2d.MaxPooling2D(2, 2)
    func.apply((x,))
    assert func._swapped
    idx = func.indexes
    func.indexes = numpy.zeros_like(idx)
    numpy.testing.assert_array_equal(func.indexes, 0)
    func.indexes = idx.tolist()
    numpy.testing.assert_array_equal(func.indexes, idx)


def test_average_pooling_forward_takes_no_window_copy():
    # the window sums add strided views of x: the peak is the padded buffer and the
    # output, not the 9-fold gathered windows of a 3x3 kernel
    import tracemalloc
    x = numpy.random.RandomState(0).rand(4, 16, 32, 32).astype(numpy.float32)
    F.average_pooling_2d(x, 3, 1, 1)     # warm-up
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        before = tracemalloc.get_traced_memory()[0]
        y = F.average_pooling_2d(x, 3, 1, 1)
        peak = tracemalloc.get_traced_memory()[1] - before
    finally:
        tracemalloc.stop()
    assert y.shape == x.shape
    assert peak < 3.5 * x.nbytes, peak / x.nbytes
