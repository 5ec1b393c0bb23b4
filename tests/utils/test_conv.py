import numpy
import pytest

from minichainer.utils import conv
from minichainer.utils import conv_nd


@pytest.mark.parametrize('args,expect', [
    ((10, 3, 1, 0), 8), ((10, 3, 2, 1), 5), ((10, 3, 3, 0, True), 4),
    ((10, 3, 3, 0, False), 3), ((10, 3, 1, 0, False, 2), 6),
])
def test_get_conv_outsize(args, expect):
    assert conv.get_conv_outsize(*args) == expect


@pytest.mark.parametrize('args,expect', [
    ((8, 3, 1, 0), 10), ((5, 3, 2, 1), 9), ((4, 3, 3, 0, True), 10),
    ((6, 3, 1, 0, False, 2), 10),
])
def test_get_deconv_outsize(args, expect):
    assert conv.get_deconv_outsize(*args) == expect


@pytest.mark.parametrize('params', [
    (2, 2, 1, 1, 0, 0, False, 1, 1),
    (3, 2, 2, 1, 1, 0, True, 1, 1),
    (2, 3, 1, 2, 1, 2, False, 2, 1),
])
def test_im2col_col2im(params):
    kh, kw, sy, sx, ph, pw, cover_all, dy, dx = params
    rng = numpy.random.RandomState(0)
    img = rng.randn(2, 3, 6, 7)
    col = conv.im2col_cpu(img, kh, kw, sy, sx, ph, pw, cover_all=cover_all, dy=dy, dx=dx)
    oh = conv.get_conv_outsize(6, kh, sy, ph, cover_all, dy)
    ow = conv.get_conv_outsize(7, kw, sx, pw, cover_all, dx)
    assert col.shape == (2, 3, kh, kw, oh, ow)
    padded = numpy.zeros((2, 3, 6 + 2 * ph + sy + kh * dy, 7 + 2 * pw + sx + kw * dx))
    padded[:, :, ph:ph + 6, pw:pw + 7] = img
    for j in range(kh):
        for i in range(kw):
            for y in range(oh):
                for x in range(ow):
                    numpy.testing.assert_array_equal(
                        col[:, :, j, i, y, x], padded[:, :, y * sy + j * dy, x * sx + i * dx])
    # col2im is the adjoint of im2col: <im2col(a), c> == <a, col2im(c)>
    c = rng.randn(*col.shape)
    back = conv.col2im_cpu(c, sy, sx, ph, pw, 6, 7, dy, dx)
    assert back.shape == img.shape
    numpy.testing.assert_allclose((col * c).sum(), (img * back).sum())
    # the channel-major variants agree with the public layout
    col_cn = conv._im2col_cn(img, kh, kw, sy, sx, ph, pw, dy, dx, oh, ow)
    numpy.testing.assert_array_equal(col_cn, col.transpose(1, 2, 3, 0, 4, 5))
    back_cn = conv._col2im_cn(c.transpose(1, 2, 3, 0, 4, 5), sy, sx, ph, pw, 6, 7, dy, dx)
    numpy.testing.assert_allclose(back_cn, back)


def test_im2col_pval():
    img = numpy.zeros((1, 1, 2, 2))
    col = conv.im2col_cpu(img, 2, 2, 1, 1, 1, 1, pval=-numpy.inf)
    assert numpy.isinf(col[0, 0, 0, 0, 0, 0])
    assert col[0, 0, 1, 1, 0, 0] == 0


def test_im2col_nd_matches_2d():
    rng = numpy.random.RandomState(1)
    img = rng.randn(2, 2, 5, 6)
    col2 = conv.im2col_cpu(img, 3, 2, 2, 1, 1, 0, cover_all=True, dy=1, dx=2)
    coln = conv_nd.im2col_nd_cpu(img, (3, 2), (2, 1), (1, 0), cover_all=True, dilate=(1, 2))
    numpy.testing.assert_array_equal(col2, coln)
    c = rng.randn(*col2.shape)
    numpy.testing.assert_allclose(
        conv.col2im_cpu(c, 2, 1, 1, 0, 5, 6, 1, 2),
        conv_nd.col2im_nd_cpu(c, (2, 1), (1, 0), (5, 6), dilate=(1, 2)))


def test_conv_nd_as_tuple():
    assert conv_nd.as_tuple(2, 3) == (2, 2, 2)
    assert conv_nd.as_tuple([1, 2], 2) == (1, 2)
    with pytest.raises(ValueError):
        conv_nd.as_tuple((1, 2), 3)


def test_im2col_nonpositive_output():
    with pytest.raises(AssertionError):
        conv.im2col_cpu(numpy.zeros((1, 1, 2, 2)), 5, 5, 1, 1, 0, 0)


def test_chainer_signatures_and_errors():
    import pytest
    from minichainer.utils import conv, conv_nd
    img = numpy.arange(2 * 3 * 4 * 5, dtype=numpy.float32).reshape(2, 3, 4, 5)
    # Chainer's positional order: im2col_nd_cpu(img, ksize, stride, pad, pval, cover_all)
    col = conv_nd.im2col_nd_cpu(img, (2, 2), (1, 1), (1, 1), -1.0)
    assert col.shape == (2, 3, 2, 2, 5, 6) and col[0, 0, 0, 0, 0, 0] == -1.0
    assert conv_nd.get_conv_outsize is conv.get_conv_outsize
    # conv.im2col has Chainer's signature: cover_all is the 8th argument
    assert conv.im2col(img, 3, 3, 2, 2, 0, 0, True).shape == (2, 3, 3, 3, 2, 2)
    with pytest.raises(AssertionError):
        conv_nd.as_tuple((1,), 3)
    with pytest.raises(ValueError, match='length 3'):
        conv_nd.as_tuple((1,), 3)
    with pytest.raises(ValueError, match=r'\(2, 3, 4, 5\)'):
        conv_nd.im2col_nd_cpu(img, (5, 2), (1, 1), (0, 0))
    back = conv_nd.col2im_nd_cpu(numpy.ones((2, 3, 2, 2, 3, 4), 'f'), 1, 0, (4, 5))
    assert back.shape == (2, 3, 4, 5) and back[0, 0, 1, 1] == 4


# -- same-size grids: im2col as shifted rows, col2im as shifted adds ----------------------

def _strided_im2col(img, ksize, pad, dilate, pval):
    ones = (1,) * len(ksize)
    outs = img.shape[2:]
    src = conv_nd.padded_source(img, ksize, ones, pad, dilate, outs, pval)
    return numpy.ascontiguousarray(conv_nd.patches_view(src, ksize, ones, dilate, outs))


def _layouts(img):
    """`img` (n, c, d...) as a C-ordered array, in (c, n, d...) memory order, and as a
    slice of a larger batch."""
    cm = numpy.ascontiguousarray(img.swapaxes(0, 1)).swapaxes(0, 1)
    bigger = numpy.concatenate([img, img[:1]])[:len(img)]
    return [('c', img), ('channel-major', cm), ('sliced', bigger)]


SAME_GRIDS = [  # (input shape, ksize, dilate): pad = dilate * (k - 1) / 2
    ((2, 3, 7), (3,), (1,)),
    ((3, 2, 5, 6), (3, 3), (1, 1)),
    ((2, 3, 6, 5), (5, 3), (1, 2)),
    ((2, 2, 4, 5), (3, 3), (3, 3)),       # dilated kernel wider than the image
    ((2, 2, 4, 3, 5), (3, 1, 3), (1, 1, 2)),
    ((1, 2, 4, 4), (1, 1), (1, 1)),
]


@pytest.mark.parametrize('shape,ksize,dilate', SAME_GRIDS)
@pytest.mark.parametrize('pval', [0, -numpy.inf])
def test_same_grid_im2col_equals_the_strided_copy(shape, ksize, dilate, pval):
    rng = numpy.random.RandomState(0)
    pad = tuple(d * (k - 1) // 2 for k, d in zip(ksize, dilate))
    img = rng.randn(*shape).astype(numpy.float32)
    expect = _strided_im2col(img, ksize, pad, dilate, pval)
    for name, x in _layouts(img):
        assert conv_nd.same_grid((1,) * len(ksize), shape[2:], x.shape[2:])
        got = conv_nd.im2col_cn(x, ksize, (1,) * len(ksize), pad, dilate, shape[2:], pval)
        numpy.testing.assert_array_equal(got, expect, err_msg=name)


@pytest.mark.parametrize('shape,ksize,dilate', SAME_GRIDS)
@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
@pytest.mark.parametrize('values', ['random', 'negative zeros'])
def test_same_grid_col2im_is_bit_for_bit_the_clipped_adds(shape, ksize, dilate, dtype,
                                                           values):
    rng = numpy.random.RandomState(1)
    ndim = len(ksize)
    pad = tuple(d * (k - 1) // 2 for k, d in zip(ksize, dilate))
    n, c = shape[:2]
    col = rng.randn(*((c,) + ksize + (n,) + shape[2:])).astype(dtype)
    col[..., ::3] = -0.0
    col.reshape(-1)[::7] = 0.0
    # the image is added into, not overwritten: start it from values that include -0.0,
    # which adding -0.0 keeps and adding +0.0 would not
    start = rng.randn(*((c, n) + shape[2:])).astype(dtype)
    start[..., ::2] = -0.0
    if values == 'negative zeros':
        col[...] = -0.0
    ones = (1,) * ndim
    expect = start.copy()
    kept = col.copy()
    conv_nd.col2im_add(expect, col, ones, pad, dilate)
    numpy.testing.assert_array_equal(col, kept)  # col is read only without overwrite_col
    for image in ('contiguous', 'slice of a batch'):
        if image == 'contiguous':
            got = start.copy()
            target = got
        else:
            got = numpy.zeros((c, n + 2) + shape[2:], dtype)
            target = got[:, 1:n + 1]
            target[...] = start
        conv_nd.col2im_add(target, col.copy(), ones, pad, dilate, overwrite_col=True)
        numpy.testing.assert_array_equal(target, expect)
        assert (numpy.signbit(target) == numpy.signbit(expect)).all(), image
        if image != 'contiguous':
            assert not got[:, 0].any() and not got[:, -1].any()


def test_same_grid_needs_stride_one_and_the_image_size():
    assert conv_nd.same_grid((1, 1), (5, 6), (5, 6))
    assert not conv_nd.same_grid((1, 2), (5, 6), (5, 6))
    assert not conv_nd.same_grid((1, 1), (3, 4), (5, 6))


# Strided grids whose phases fit the output grid: patches and col2im through phase planes.
PHASE_GRIDS = [  # (input shape, ksize, stride, pad, dilate, cover_all)
    ((2, 3, 8), (3,), (2,), (1,), (1,), False),
    ((2, 3, 9, 8), (3, 3), (2, 2), (1, 1), (1, 1), False),      # odd height: shorter phase
    ((1, 2, 12, 10), (7, 5), (2, 2), (3, 2), (1, 1), False),    # a ResNet-stem-like kernel
    ((2, 2, 8, 9), (4, 4), (2, 2), (1, 1), (1, 1), True),
    ((2, 2, 9, 8), (3, 5), (3, 2), (2, 4), (1, 2), False),      # per-axis stride, dilation
    ((1, 2, 6, 4, 6), (3, 3, 3), (2, 1, 2), (1, 1, 1), (1, 1, 1), False),
    ((2, 1, 4, 5), (5, 5), (2, 2), (4, 4), (1, 1), False),      # most offsets in the padding
]


def _phase_case(shape, ksize, stride, pad, dilate, cover_all):
    outs = conv_nd._out_dims(shape, ksize, stride, pad, cover_all, dilate)
    assert conv_nd.phase_grid(stride, ksize, outs, shape[2:])
    return outs


@pytest.mark.parametrize('case', PHASE_GRIDS)
@pytest.mark.parametrize('pval', [0, -numpy.inf])
def test_phase_grid_im2col_equals_the_strided_copy(case, pval):
    shape, ksize, stride, pad, dilate, cover_all = case
    outs = _phase_case(*case)
    img = numpy.random.RandomState(2).randn(*shape).astype(numpy.float32)
    src = conv_nd.padded_source(img, ksize, stride, pad, dilate, outs, pval)
    expect = numpy.ascontiguousarray(conv_nd.patches_view(src, ksize, stride, dilate, outs))
    for name, x in _layouts(img):
        got = conv_nd.im2col_cn(x, ksize, stride, pad, dilate, outs, pval)
        numpy.testing.assert_array_equal(got, expect, err_msg=name)


@pytest.mark.parametrize('case', PHASE_GRIDS)
@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
def test_phase_grid_col2im_is_bit_for_bit_the_clipped_adds(case, dtype):
    shape, ksize, stride, pad, dilate, cover_all = case
    outs = _phase_case(*case)
    rng = numpy.random.RandomState(3)
    n, c = shape[:2]
    col = rng.randn(*((c,) + ksize + (n,) + outs)).astype(dtype)
    col.reshape(-1)[::5] = -0.0
    start = rng.randn(*((c, n) + shape[2:])).astype(dtype)
    start[..., ::2] = -0.0
    for zeroed in (False, True):
        initial = numpy.zeros_like(start) if zeroed else start
        expect = initial.copy()
        conv_nd.col2im_add(expect, col, stride, pad, dilate)
        got = numpy.zeros((c, n + 2) + shape[2:], dtype)
        target = got[:, 1:n + 1]
        target[...] = initial
        conv_nd.col2im_add(target, col.copy(), stride, pad, dilate, overwrite_col=True,
                           zeroed=zeroed)
        numpy.testing.assert_array_equal(target, expect)
        assert (numpy.signbit(target) == numpy.signbit(expect)).all()
        assert not got[:, 0].any() and not got[:, -1].any()


def test_phase_grid_needs_a_stride_phases_within_the_output_and_shared_phases():
    assert conv_nd.phase_grid((2, 2), (3, 3), (16, 16), (32, 32))
    assert conv_nd.phase_grid((2, 2), (3, 3), (4, 4), (7, 7))       # ceil(7 / 2) == 4
    assert not conv_nd.phase_grid((1, 1), (3, 3), (5, 5), (5, 5))   # a same-size grid
    assert not conv_nd.phase_grid((2, 2), (3, 3), (3, 3), (7, 7))   # phases longer than 3
    assert not conv_nd.phase_grid((2, 2), (1, 1), (16, 16), (32, 32))  # one offset a phase
    assert not conv_nd.phase_grid((2, 2), (2, 2), (16, 16), (32, 32))
