"""The N-d convolution engine: equal to the previous implementation on recorded random
cases, gradient checks over the dilation / groups / cover_all combinations in float16/32/64,
and clear errors on bad arguments."""
import os

import numpy
import pytest

import minichainer
import minichainer.functions as F
from minichainer import gradient_check
from minichainer.functions.connection import convolution_engine as engine
from minichainer.utils import conv_nd

from . import conv_cases
from ._conv_ref import conv_ref

_RECORDED = numpy.load(os.path.join(os.path.dirname(__file__), 'fixtures',
                                    'conv_previous.npz'))


@pytest.mark.parametrize('case', conv_cases.CASES, ids=[c[0] for c in conv_cases.CASES])
def test_equal_to_the_previous_implementation(case):
    got = conv_cases.run_case(F, minichainer, case)
    for key, value in got.items():
        expect = _RECORDED['{}/{}'.format(case[0], key)]
        assert value.shape == expect.shape, key
        numpy.testing.assert_allclose(value, expect, rtol=1e-12, atol=1e-12, err_msg=key)


@pytest.mark.parametrize('case', [c for c in conv_cases.CASES if c[1] == 'convolution_nd'],
                         ids=lambda c: c[0])
def test_recorded_values_match_the_loop_reference(case):
    # The recorded outputs are themselves right: a naive loop convolution agrees.
    name, _, xs, ws, with_bias, kw = case
    nd = len(xs) - 2
    rng = numpy.random.RandomState(sum(map(ord, name)))
    x = rng.uniform(-1, 1, xs)
    W = rng.uniform(-1, 1, ws)
    b = rng.uniform(-1, 1, ws[0]) if with_bias else None
    tup = (lambda v: conv_nd.as_tuple(v, nd))
    expect = conv_ref(x, W, b, tup(kw.get('stride', 1)), tup(kw.get('pad', 0)),
                      tup(kw.get('dilate', 1)), kw.get('groups', 1),
                      kw.get('cover_all', False))
    numpy.testing.assert_allclose(_RECORDED[name + '/y'], expect, rtol=1e-12, atol=1e-12)


TOL = {numpy.float16: dict(atol=5e-3, rtol=5e-2, dtype=numpy.float64),
       numpy.float32: dict(atol=1e-3, rtol=1e-2),
       numpy.float64: dict(atol=1e-7, rtol=1e-6)}

GRAD_CASES = [
    # (x shape, W shape, stride, pad, dilate, groups, cover_all)
    ((1, 2, 5), (2, 2, 2), 2, 1, 2, 1, True),
    ((2, 4, 5, 4), (4, 2, 3, 2), 1, 1, 1, 2, False),
    ((1, 4, 6, 5), (2, 2, 2, 3), 2, (0, 1), (2, 1), 2, True),
    ((1, 2, 6, 7), (2, 2, 3, 2), (2, 3), 1, 2, 1, False),
    ((1, 2, 4, 3, 4), (2, 1, 2, 2, 2), (1, 2, 1), 1, (1, 1, 2), 2, True),
    # same-size grids (stride 1, "same" padding): patches and col2im as shifted rows
    ((2, 3, 7), (2, 3, 3), 1, 1, 1, 1, False),
    ((2, 4, 5, 6), (4, 2, 3, 3), 1, 1, 1, 2, False),
    ((1, 2, 4, 3, 5), (2, 2, 3, 1, 3), 1, (2, 0, 2), (2, 1, 2), 1, False),
    # strided grids whose phases fit the output: patches and col2im through phase planes
    ((2, 3, 8), (2, 3, 3), 2, 1, 1, 1, False),
    ((2, 2, 6, 5), (4, 1, 3, 3), 2, 1, 1, 2, False),
    ((1, 2, 5, 6), (2, 2, 4, 4), 2, 1, 1, 1, True),
]

SAME_GRID_CASES = [
    # (x shape, W shape, pad, dilate, groups, x in channel-major order)
    ((3, 4, 6, 5), (8, 4, 3, 3), 1, 1, 1, False),
    ((3, 4, 6, 5), (8, 4, 3, 3), 1, 1, 1, True),
    ((2, 4, 7, 6), (4, 2, 5, 3), (4, 2), (2, 2), 2, True),
    ((2, 3, 9), (5, 3, 3), 3, 3, 1, False),
    ((2, 2, 3, 4, 5), (6, 2, 3, 3, 3), 1, 1, 1, False),
]


@pytest.mark.parametrize('case', SAME_GRID_CASES)
def test_same_grid_path_is_bit_for_bit_the_strided_one(case, monkeypatch):
    xs, ws, pad, dilate, groups, channel_major = case
    rng = numpy.random.RandomState(6)
    x = rng.uniform(-1, 1, xs).astype(numpy.float32)
    if channel_major:
        x = numpy.ascontiguousarray(x.swapaxes(0, 1)).swapaxes(0, 1)
    W = rng.uniform(-1, 1, ws).astype(numpy.float32)
    gy = rng.uniform(-1, 1, (xs[0], ws[0]) + xs[2:]).astype(numpy.float32)

    def run():
        xv, Wv = minichainer.Variable(x.copy()), minichainer.Variable(W)
        y = F.convolution_nd(xv, Wv, None, 1, pad, False, dilate, groups)
        assert y.shape == gy.shape
        y.grad = gy
        y.backward()
        return y.array, xv.grad, Wv.grad

    calls = []
    for name in ('_flat_im2col', '_flat_col2im_add'):
        real = getattr(conv_nd, name)
        monkeypatch.setattr(conv_nd, name,
                            lambda *a, _name=name, _real=real: calls.append(_name) or _real(*a))
    fast = run()
    # the forward patches and the data gradient's col2im took the shifted rows
    assert set(calls) == {'_flat_im2col', '_flat_col2im_add'}
    monkeypatch.setattr(conv_nd, 'same_grid', lambda *a: False)
    strided = run()
    for got, expect in zip(fast, strided):
        numpy.testing.assert_array_equal(got, expect)


PHASE_GRID_CASES = [
    # (x shape, W shape, stride, pad, dilate, groups, x in channel-major order)
    ((3, 4, 8, 8), (6, 4, 3, 3), 2, 1, 1, 1, False),
    ((2, 4, 9, 8), (4, 2, 3, 3), 2, 1, 1, 2, True),
    ((2, 3, 12, 10), (4, 3, 7, 5), 2, (3, 2), 1, 1, False),
    ((2, 2, 9, 8), (3, 2, 3, 5), (3, 2), (2, 4), (1, 2), 1, True),
    ((1, 2, 6, 4, 6), (3, 2, 3, 3, 3), (2, 1, 2), 1, 1, 1, False),
]


@pytest.mark.parametrize('case', PHASE_GRID_CASES)
def test_phase_grid_path_is_bit_for_bit_the_strided_one(case, monkeypatch):
    # strided convolutions and their (col2im) data gradients through phase planes
    xs, ws, stride, pad, dilate, groups, channel_major = case
    rng = numpy.random.RandomState(7)
    x = rng.uniform(-1, 1, xs).astype(numpy.float32)
    if channel_major:
        x = numpy.ascontiguousarray(x.swapaxes(0, 1)).swapaxes(0, 1)
    W = rng.uniform(-1, 1, ws).astype(numpy.float32)

    def run():
        xv, Wv = minichainer.Variable(x.copy()), minichainer.Variable(W)
        y = F.convolution_nd(xv, Wv, None, stride, pad, False, dilate, groups)
        y.grad = numpy.random.RandomState(8).uniform(-1, 1, y.shape).astype(numpy.float32)
        y.backward()
        return y.array, xv.grad, Wv.grad

    calls = []
    real = conv_nd._phased_col2im_add
    monkeypatch.setattr(conv_nd, '_phased_col2im_add',
                        lambda *a: calls.append('col2im') or real(*a))
    real_planes = conv_nd._phase_planes
    monkeypatch.setattr(conv_nd, '_phase_planes',
                        lambda *a: calls.append('planes') or real_planes(*a))
    fast = run()
    assert 'col2im' in calls and 'planes' in calls
    monkeypatch.setattr(conv_nd, 'phase_grid', lambda *a: False)
    strided = run()
    for got, expect in zip(fast, strided):
        numpy.testing.assert_array_equal(got, expect)


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
@pytest.mark.parametrize('case', GRAD_CASES)
def test_convolution_gradients(case, dtype):
    xs, ws, stride, pad, dilate, groups, cover_all = case
    rng = numpy.random.RandomState(3)
    x = rng.uniform(-1, 1, xs).astype(dtype)
    W = rng.uniform(-1, 1, ws).astype(dtype)
    b = rng.uniform(-1, 1, ws[0]).astype(dtype)

    def f(x, W, b):
        return F.convolution_nd(x, W, b, stride, pad, cover_all, dilate, groups)

    gy = rng.uniform(-1, 1, f(x, W, b).shape).astype(dtype)
    gradient_check.check_backward(f, (x, W, b), gy, **TOL[dtype])


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
@pytest.mark.parametrize('case', GRAD_CASES)
def test_deconvolution_gradients(case, dtype):
    xs, ws, stride, pad, dilate, groups, cover_all = case
    rng = numpy.random.RandomState(4)
    nd = len(xs) - 2
    # a deconvolution from the convolution's output size back to (a size near) xs
    ys = F.convolution_nd(numpy.zeros(xs), numpy.zeros(ws), None, stride, pad, cover_all,
                          dilate, groups).shape
    x = rng.uniform(-1, 1, ys).astype(dtype)
    W = rng.uniform(-1, 1, (ys[1], xs[1] // groups) + ws[2:]).astype(dtype)
    b = rng.uniform(-1, 1, xs[1]).astype(dtype)
    outsize = xs[2:] if nd > 1 else None

    def f(x, W, b):
        return F.deconvolution_nd(x, W, b, stride, pad, outsize, dilate, groups)

    gy = rng.uniform(-1, 1, f(x, W, b).shape).astype(dtype)
    gradient_check.check_backward(f, (x, W, b), gy, **TOL[dtype])


def test_double_backward_grouped_dilated():
    rng = numpy.random.RandomState(5)
    x = rng.uniform(-1, 1, (1, 4, 5, 5))
    W = rng.uniform(-1, 1, (2, 2, 2, 2))

    def f(x, W):
        return F.convolution_2d(x, W, stride=2, pad=1, cover_all=True, dilate=2, groups=2)

    y = f(x, W)
    gy = rng.uniform(-1, 1, y.shape)
    gradient_check.check_double_backward(
        f, (x, W), gy, (rng.uniform(-1, 1, x.shape), rng.uniform(-1, 1, W.shape)),
        atol=1e-6, rtol=1e-5)


def test_two_d_attributes():
    func = F.connection.convolution_2d.Convolution2DFunction(
        (2, 3), (1, 0), dilate=(2, 1), groups=1)
    assert (func.sy, func.sx, func.ph, func.pw, func.dy, func.dx) == (2, 3, 1, 0, 2, 1)
    dfunc = F.connection.deconvolution_2d.Deconvolution2DFunction(2, 1, outsize=(5, 6))
    assert (dfunc.outh, dfunc.outw, dfunc.sy, dfunc.pw) == (5, 6, 2, 1)


def test_deconvolution_2d_one_axis_outsize():
    x = numpy.ones((1, 1, 3, 3))
    W = numpy.ones((1, 1, 3, 3))
    y = F.deconvolution_2d(x, W, stride=2, pad=1, outsize=(None, 6))
    assert y.shape == (1, 1, 5, 6)


# -- bad input --------------------------------------------------------------------------

X = numpy.zeros((2, 4, 5, 5), numpy.float32)
W = numpy.zeros((4, 4, 3, 3), numpy.float32)


@pytest.mark.parametrize('call, words', [
    (lambda: F.convolution_2d(X, W, stride=0), ['stride', '0', '(2, 4, 5, 5)']),
    (lambda: F.convolution_2d(X, W, stride=(1, 0)), ['stride', '(1, 0)']),
    (lambda: F.convolution_2d(X, W, pad=-1), ['pad', '-1', '(2, 4, 5, 5)']),
    (lambda: F.convolution_2d(X, W, dilate=0), ['dilate', '0']),
    (lambda: F.convolution_2d(X, W[:, :, :0], pad=1), ['kernel size', '(0, 3)']),
    (lambda: F.convolution_2d(X, W[:2, :2], groups=3), ['groups (3)', '(2, 4, 5, 5)']),
    (lambda: F.convolution_2d(X, W[:3, :2], groups=2), ['groups (2)', 'output']),
    (lambda: F.convolution_2d(X, W, groups=0), ['groups', '0']),
    (lambda: F.convolution_2d(X, numpy.zeros((4, 4, 7, 3), 'f')), ['kernel', '(7, 3)',
                                                                   '(2, 4, 5, 5)']),
    (lambda: F.convolution_2d(X, W, dilate=3), ['dilate', '(3, 3)', 'larger']),
    (lambda: F.convolution_nd(X[:, :, 0], W[:, :, 0], stride=0), ['stride', '0']),
    (lambda: F.convolution_nd(X[:, :, 0], W[:, :, 0], pad=(1, 1)), ['pad', '(1, 1)']),
    (lambda: F.convolution_nd(X[:, :, 0], numpy.zeros((4, 4, 9), 'f')), ['kernel', '(9,)']),
    (lambda: F.deconvolution_2d(X, W, stride=0), ['stride', '0']),
    (lambda: F.deconvolution_2d(X, W, pad=-2), ['pad', '-2']),
    (lambda: F.deconvolution_2d(X, W[:, :1], groups=3), ['groups (3)']),
    (lambda: F.deconvolution_2d(X, W, pad=5), ['output size', '(2, 4, 5, 5)']),
    (lambda: F.deconvolution_nd(X, W, dilate=(1, 0)), ['dilate', '(1, 0)']),
    (lambda: F.depthwise_convolution_2d(X, W[:1], stride=0), ['stride']),
    (lambda: F.dilated_convolution_2d(X, W, dilate=-1), ['dilate', '-1']),
])
def test_bad_arguments_raise_value_error(call, words):
    with pytest.raises(ValueError) as info:
        call()
    for word in words:
        assert word in str(info.value)


def test_shape_errors_are_also_chainers_types():
    # Chainer raises RuntimeError (convolution_2d) and AssertionError
    # (deconvolution_nd) for a non-positive output size; both still catch it.
    with pytest.raises(RuntimeError):
        F.convolution_2d(X, numpy.zeros((4, 4, 7, 7), 'f'))
    with pytest.raises(AssertionError):
        F.deconvolution_nd(X, W, pad=5)


def test_type_check_off_still_gives_value_errors():
    with minichainer.using_config('type_check', False):
        with pytest.raises(ValueError, match='groups'):
            F.convolution_2d(X, W[:3, :2], groups=2)
        with pytest.raises(ValueError, match='kernel'):
            F.convolution_2d(X, numpy.zeros((4, 4, 6, 6), 'f'))


def test_data_gradient_in_image_chunks_is_the_same(monkeypatch):
    from minichainer.functions.connection import convolution_engine as engine
    case = conv_cases.CASES[2]  # grouped, dilated
    whole = conv_cases.run_case(F, minichainer, case)
    monkeypatch.setattr(engine, 'GCOL_CHUNK_BYTES', 1)  # one image at a time
    chunked = conv_cases.run_case(F, minichainer, case)
    for key in whole:
        numpy.testing.assert_allclose(chunked[key], whole[key], rtol=1e-12, atol=1e-12)


# -- stride-1 data gradient / deconvolution as a convolution (no col2im) -------------------

# (x shape, W shape, pad, dilate) of stride-1 convolutions whose data gradient takes the
# im2col path (no more output than input channels, pad within the dilated kernel)
BY_CONV_CASES = [
    ((2, 3, 5, 4), (2, 3, 3, 2), 1, 1),
    ((1, 3, 6, 5), (3, 3, 2, 3), (1, 2), (2, 1)),
    ((2, 2, 6), (2, 2, 3), 2, 1),
    ((1, 2, 3, 4, 3), (2, 2, 2, 2, 2), (0, 1, 1), 1),
]


def _count_by_conv(monkeypatch):
    from minichainer.functions.connection import convolution_engine as engine
    calls = []
    real = engine.deconv_forward_by_conv

    def spy(*args):
        calls.append(1)
        return real(*args)

    monkeypatch.setattr(engine, 'deconv_forward_by_conv', spy)
    return calls


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
@pytest.mark.parametrize('case', BY_CONV_CASES)
def test_stride_one_data_gradient_by_convolution(case, dtype, monkeypatch):
    xs, ws, pad, dilate = case
    calls = _count_by_conv(monkeypatch)
    rng = numpy.random.RandomState(6)
    x = rng.uniform(-1, 1, xs).astype(dtype)
    W = rng.uniform(-1, 1, ws).astype(dtype)
    b = rng.uniform(-1, 1, ws[0]).astype(dtype)

    def f(x, W, b):
        return F.convolution_nd(x, W, b, 1, pad, False, dilate)

    gy = rng.uniform(-1, 1, f(x, W, b).shape).astype(dtype)
    gradient_check.check_backward(f, (x, W, b), gy, **TOL[dtype])
    assert calls  # the path under test ran


@pytest.mark.parametrize('chunk', [None, 1])
@pytest.mark.parametrize('case', BY_CONV_CASES)
def test_by_convolution_equals_col2im(case, chunk, monkeypatch):
    from minichainer.functions.connection import convolution_engine as engine
    xs, ws, pad, dilate = case
    rng = numpy.random.RandomState(7)
    x = rng.uniform(-1, 1, xs)
    W = rng.uniform(-1, 1, ws)
    y = F.convolution_nd(x, W, None, 1, pad, False, dilate)
    gy = rng.uniform(-1, 1, y.shape)
    b = rng.uniform(-1, 1, xs[1])
    if chunk:
        monkeypatch.setattr(engine, 'COL_CHUNK_BYTES', chunk)  # one image at a time
    results = []
    for ratio in (engine.DECONV_BY_CONV_RATIO, 0):  # 0: always W.T @ gy + col2im
        monkeypatch.setattr(engine, 'DECONV_BY_CONV_RATIO', ratio)
        xv = minichainer.Variable(x)
        y = F.convolution_nd(xv, W, None, 1, pad, False, dilate)
        y.grad = gy
        y.backward()
        d = F.deconvolution_nd(gy, W, b, 1, pad, None, dilate)
        results.append((xv.grad, d.array))
    for new, old in zip(*results):
        numpy.testing.assert_allclose(new, old, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize('kwargs, xs, ws', [
    (dict(stride=2, pad=1), (1, 3, 6, 6), (2, 3, 3, 3)),            # stride
    (dict(pad=1, groups=3), (1, 3, 5, 5), (3, 1, 3, 3)),            # groups
    (dict(pad=2), (1, 3, 5, 5), (2, 3, 2, 2)),                      # pad > k - 1
    (dict(pad=1), (1, 2, 5, 5), (4, 2, 3, 3)),                      # more out channels
    (dict(pad=1, stride=3, cover_all=True), (1, 3, 5, 5), (2, 3, 3, 3)),  # cover_all
])
def test_other_data_gradients_take_col2im(kwargs, xs, ws, monkeypatch):
    calls = _count_by_conv(monkeypatch)
    rng = numpy.random.RandomState(8)
    x = rng.uniform(-1, 1, xs)
    W = rng.uniform(-1, 1, ws)

    def f(x, W):
        return F.convolution_2d(x, W, **kwargs)

    gy = rng.uniform(-1, 1, f(x, W).shape)
    gradient_check.check_backward(f, (x, W), gy, atol=1e-7, rtol=1e-6)
    assert not calls


def test_by_convolution_mixed_dtypes_fall_back(monkeypatch):
    calls = _count_by_conv(monkeypatch)
    x = numpy.ones((1, 2, 4, 4), numpy.float32)
    W = numpy.ones((2, 2, 3, 3), numpy.float64)
    y = F.deconvolution_2d(x, W, pad=1)
    assert y.dtype == numpy.float32 and not calls
    numpy.testing.assert_allclose(y.array[0, 0, 1, 1], 18)



@pytest.mark.parametrize('kwargs, xs, ws', [
    (dict(pad=1), (2, 2, 6, 6), (4, 2, 3, 3)),              # padded: cropped out
    (dict(stride=2, pad=1), (2, 3, 7, 7), (2, 3, 3, 3)),
    (dict(), (2, 3, 6, 6), (2, 3, 2, 2)),                    # nothing to crop
])
def test_col2im_data_gradient_is_contiguous_channel_major(kwargs, xs, ws):
    # the col2im data gradient comes out in (c, n, h, w) memory order, copied out of
    # its padded buffer: a cropped view's short rows slow every consumer's passes
    rng = numpy.random.RandomState(12)
    x = minichainer.Variable(rng.uniform(-1, 1, xs))
    W = rng.uniform(-1, 1, ws)
    y = F.convolution_2d(x, W, **kwargs)
    gy = rng.uniform(-1, 1, y.shape)
    y.grad = gy
    y.backward()
    assert x.grad.swapaxes(0, 1).flags.c_contiguous
    col = numpy.einsum('ocij,nohw->ncijhw', W, gy)
    expect = conv_nd.col2im_nd_cpu(col, kwargs.get('stride', 1), kwargs.get('pad', 0),
                                   xs[2:])
    numpy.testing.assert_allclose(x.grad, expect, rtol=1e-12, atol=1e-12)


def test_deconvolution_backward_takes_the_patches_of_gy_once(monkeypatch):
    # the data gradient (a convolution of gy) and the filter gradient share im2col(gy)
    calls = []
    real = conv_nd.im2col_cn

    def spy(*args, **kwargs):
        calls.append(args[0].shape)
        return real(*args, **kwargs)

    monkeypatch.setattr(conv_nd, 'im2col_cn', spy)
    rng = numpy.random.RandomState(16)
    x = minichainer.Variable(rng.uniform(-1, 1, (2, 4, 3, 3)))
    W = minichainer.Variable(rng.uniform(-1, 1, (4, 3, 4, 4)))
    y = F.deconvolution_2d(x, W, stride=2, pad=1)
    gy = rng.uniform(-1, 1, y.shape)
    y.grad = gy
    y.backward()
    assert calls == [gy.shape]
    expect_x = F.convolution_2d(gy, W.array, stride=2, pad=1).array
    numpy.testing.assert_allclose(x.grad, expect_x, rtol=1e-12, atol=1e-12)
    gradient_check.check_backward(
        lambda x, W: F.deconvolution_2d(x, W, stride=2, pad=1), (x.array, W.array), gy,
        atol=1e-7, rtol=1e-6)


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
def test_depthwise_data_gradient_is_the_outer_product_of_one_term(dtype):
    # a product over one term (channels per group of one, one output per group) is
    # formed as a broadcast product: the values BLAS gives, and a gradient check holds
    rng = numpy.random.RandomState(9)
    a = rng.uniform(-1, 1, (4, 9, 1)).astype(dtype)
    b = rng.uniform(-1, 1, (4, 1, 50)).astype(dtype)
    numpy.testing.assert_array_equal(engine.matmul(a, b, numpy), numpy.matmul(a, b))
    numpy.testing.assert_array_equal(engine.matmul(a[0], b[0], numpy), a[0].dot(b[0]))
    x = rng.uniform(-1, 1, (2, 3, 6, 5)).astype(dtype)
    W = rng.uniform(-1, 1, (1, 3, 3, 3)).astype(dtype)    # channel multiplier 1
    gy = rng.uniform(-1, 1, (2, 3, 3, 3)).astype(dtype)
    gradient_check.check_backward(
        lambda x, W: F.depthwise_convolution_2d(x, W, stride=2, pad=1), (x, W), gy,
        **TOL[dtype])


@pytest.mark.parametrize('groups', [1, 2])
@pytest.mark.parametrize('channel_major', [False, True])
def test_pointwise_convolution_takes_no_patches_and_equals_the_general_path(
        groups, channel_major, monkeypatch):
    # a 1x1, stride-1, unpadded kernel: the patches are x itself (a view when x is in
    # channel-major order) and the data gradient is W.T @ gy with no col2im
    rng = numpy.random.RandomState(10)
    x = rng.uniform(-1, 1, (3, 4, 5, 6)).astype(numpy.float32)
    if channel_major:
        x = numpy.ascontiguousarray(x.swapaxes(0, 1)).swapaxes(0, 1)
    W = rng.uniform(-1, 1, (6, 4 // groups, 1, 1)).astype(numpy.float32)
    gy = rng.uniform(-1, 1, (3, 6, 5, 6)).astype(numpy.float32)
    col = conv_nd.patches_cn(x, (1, 1), (1, 1), (0, 0), (1, 1), (5, 6))
    assert numpy.shares_memory(col, x) == channel_major
    numpy.testing.assert_array_equal(
        col, conv_nd.im2col_cn(x, (1, 1), (1, 1), (0, 0), (1, 1), (5, 6)))

    def run():
        xv, Wv = minichainer.Variable(x.copy(order='K')), minichainer.Variable(W)
        y = F.convolution_2d(xv, Wv, groups=groups)
        y.grad = gy
        y.backward()
        return y.array, xv.grad, Wv.grad

    pointwise = run()
    monkeypatch.setattr(conv_nd, 'pointwise', lambda *a: False)
    general = run()
    for got, expect in zip(pointwise, general):
        numpy.testing.assert_allclose(got, expect, rtol=1e-6, atol=1e-6)
    gradient_check.check_backward(
        lambda x, W: F.convolution_2d(x, W, groups=groups), (x.astype(numpy.float64),
                                                             W.astype(numpy.float64)),
        gy.astype(numpy.float64), **TOL[numpy.float64])


def test_engine_function_and_link_modules_are_told_apart():
    # issue 34: the engine has its own module; Chainer's paths give Chainer's names
    from minichainer.functions.connection import convolution_nd, deconvolution_nd
    from minichainer.functions.connection import convolution_2d, deconvolution_2d
    from minichainer.functions.pooling import pooling_nd
    from minichainer.links.connection import convolution_nd as link_module
    assert convolution_nd.ConvolutionND is engine.ConvolutionND
    assert convolution_nd.ConvolutionNDGradW is engine.ConvolutionNDGradW
    assert convolution_2d.Convolution2DGradW is engine.ConvolutionNDGradW
    assert deconvolution_nd.DeconvolutionND is engine.DeconvolutionND
    assert issubclass(convolution_2d.Convolution2DFunction, engine.ConvolutionND)
    assert issubclass(deconvolution_2d.Deconvolution2DFunction, engine.DeconvolutionND)
    assert convolution_2d._pair(3) == (3, 3) and deconvolution_2d._pair((1, 2)) == (1, 2)
    assert pooling_nd._PoolingND is pooling_nd.PoolingND
    assert link_module.ConvolutionND is minichainer.links.ConvolutionND
    assert callable(conv_nd.im2col_nd_cpu) and callable(conv_nd.col2im_nd_cpu)


def test_engine_docstring_lists_its_interface():
    import inspect
    public = {name for name, value in vars(engine).items()
              if not name.startswith('_') and not inspect.ismodule(value)
              and getattr(value, '__module__', engine.__name__) in (engine.__name__, None)
              and (callable(value) or name.isupper())}
    public -= {'ConvolutionShapeError', 'cast'}  # imported, not the engine's own
    missing = sorted(n for n in public if '`{}`'.format(n) not in engine.__doc__)
    assert not missing


def test_shared_channel_major_gradient_is_a_constructor_argument(monkeypatch):
    # the channel-major gy that one backward computes goes to both gradients' nodes as
    # an argument (no attribute set from outside), and is dropped after use
    rng = numpy.random.RandomState(3)
    x = minichainer.Variable(rng.randn(2, 3, 5, 5))
    W = minichainer.Variable(rng.randn(4, 3, 3, 3))
    seen = []
    real_gradw, real_deconv = engine.ConvolutionNDGradW.forward, engine.DeconvolutionND.forward

    def gradw_forward(self, inputs):
        seen.append(('gW', self._gy_cn is not None))
        return real_gradw(self, inputs)

    def deconv_forward(self, inputs):
        seen.append(('gx', self._x_cn is not None))
        out = real_deconv(self, inputs)
        assert self._x_cn is None
        return out

    monkeypatch.setattr(engine.ConvolutionNDGradW, 'forward', gradw_forward)
    monkeypatch.setattr(engine.DeconvolutionND, 'forward', deconv_forward)
    y = F.convolution_2d(x, W, stride=2)
    y.grad = rng.randn(*y.shape)
    y.backward()
    assert seen == [('gW', True), ('gx', True)]
