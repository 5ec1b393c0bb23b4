"""The convolution engine: one N-dimensional implementation for every convolution.

`convolution_nd` (1-D, 2-D, 3-D, ...), `convolution_2d`, `deconvolution_2d`/`_nd`,
`depthwise_convolution_2d` and `dilated_convolution_2d` all run the code below. Three
modules share the name's stem and are told apart by their place: this module is the
engine (the function nodes and the array kernels); `functions/connection/convolution_nd.py`
and `deconvolution_nd.py` are the functions users call (and re-export Chainer's
`ConvolutionND`, `ConvolutionNDGradW` and `DeconvolutionND` from here);
`links/connection/convolution_nd.py` is the link; `utils/conv_nd.py` holds the patch
helpers (Chainer's `im2col_nd`/`col2im_nd` and the channel-major ones used here).

Interface (what other modules may use; everything else here is private):

* function nodes: `ConvolutionND`, `ConvolutionNDGradW`, `DeconvolutionND` (the 2-D
  functions subclass them and set `_owner`, the name in error messages, and
  `_bias_same_dtype`). The channel-major `gy` that one backward shares between its two
  gradients is handed over as a constructor argument: `ConvolutionNDGradW(..., gy_cn=)`,
  `DeconvolutionND(..., x_cn=)`.
* the 2-D functions' shared pieces: `TwoDAttributes` (Chainer's `sy`, `sx`, `ph`, `pw`,
  `dy`, `dx` over the N-d tuples), `as_pair`, `DETERMINISTIC_MSG`, `REQUIRES_X_GRAD_MSG`.
* argument checks, for the functions and the links: `as_ints`, `parse_params`,
  `spatial_ndim`, `check_spatial_ndim`, `check_x_W_types`, `check_b_type`,
  `check_groups_type`, `check_channels`, `conv_out_dims`.
* array kernels (arrays in, arrays out): `matmul`, `channel_major`, `grouped`,
  `conv_forward`, `conv_grad_w`, `deconv_forward`, `deconv_by_conv_ok`,
  `deconv_forward_by_conv`, and `bias_grad` (a Variable).
* tuning constants, module attributes read at call time (tests set them small to force
  the chunked paths): `COL_CACHE_MAX_BYTES`, `GCOL_CHUNK_BYTES`, `COL_CHUNK_BYTES`,
  `DEVICE_COL_CHUNK_BYTES`, `DECONV_BY_CONV_RATIO`.

Process-wide step: importing this module (which `import minichainer.functions` does)
calls `minichainer.utils.allocator.tune_malloc()` once, the glibc `malloc` settings that
keep a convnet step's freed buffers in the heap (see that module; opt-out
`MINICHAINER_MALLOC_TUNING=0`). `MALLOC_TUNED` records whether they are in effect.

Layout. The patches of `x` (n, c, d_1..d_N) are taken through a strided view and copied
once into `col` of shape (c, k_1..k_N, n, o_1..o_N). Seen as a (c * prod(k),
n * prod(o)) matrix it is the right operand of every product, so none needs a transposed
copy:

* forward `y = W (oc, c*k) @ col`, giving y in (oc, n, o...) memory order (returned as an
  (n, oc, o...) view);
* filter gradient `gW = gy (oc, n*o) @ col.T`, or `(col @ gy.T).T` when the patches have
  more rows than `gy` (faster in OpenBLAS; BLAS reads the transposes in place);
* data gradient `gcol = W.T @ gy`, then `col2im`: one strided slice add per kernel
  offset into a zeroed buffer, or one shifted add of long rows on a same-size grid
  (`conv_nd.same_grid`) or on the phase planes of a strided one (`conv_nd.phase_grid`),
  in chunks of images when `gcol` would exceed `GCOL_CHUNK_BYTES`; for a pointwise
  kernel (1x1, stride 1, no padding) `gcol` is the gradient itself; or, for stride 1
  when `gy` has no more channels than `x` (`deconv_by_conv_ok`), the convolution of
  the zero-padded `gy` with the flipped, transposed filter: im2col (a copy) instead of
  col2im (k slice adds), same FLOPs.

`gy` is brought to channel-major order at most once per backward and shared by both
gradients. The forward `col` is kept for the filter gradient when it is at most
`COL_CACHE_MAX_BYTES` (recomputed otherwise, as Chainer always does); a pointwise
kernel over a channel-major `x` reads `x` itself as `col` (`conv_nd.patches_cn`).
"""
import numbers

import numpy

from minichainer import backend
from minichainer import function_node
from minichainer.utils import allocator
from minichainer.utils import conv
from minichainer.utils import conv_nd
from minichainer.utils.conv import ConvolutionShapeError
from minichainer.utils import type_check
from minichainer.functions.array.cast import cast
from minichainer.functions.math.sum import sum as _sum
from minichainer.functions.util import checks

# The im2col buffer of the forward pass is kept for the filter gradient when it is at
# most this large; bigger buffers are recomputed in backward to bound memory.
COL_CACHE_MAX_BYTES = 64 * 1024 * 1024
# The data gradient's patch matrix (W.T @ gy) is formed at most this many bytes at a time
# (whole below it: smaller chunks measured slower, and the convnet's peak memory is
# elsewhere).
GCOL_CHUNK_BYTES = 64 * 1024 * 1024
# A stride-1 deconvolution (and so a stride-1 convolution's data gradient) is computed as
# a convolution (`deconv_forward_by_conv`) when its input has at most this many times as
# many channels as its output (measured against the strided col2im: 0.85x the time of
# W.T @ gy + col2im at 64 -> 64 channels, 1.08x at 64 -> 32; against the shifted-row
# col2im of same-size grids the ResNet stack's 64 -> 64 layers measured even, 1.01x, so
# the threshold stayed); its patch matrix is formed at most this many bytes at a
# time (one image at 64 channels of 16x16; 1 MiB measured ~5% faster than 4 MiB).
DECONV_BY_CONV_RATIO = 1
COL_CHUNK_BYTES = 1024 * 1024
# On a GPU the 1 MiB chunks (sized for the CPU's caches) would split one product into
# many small kernels: there the patch matrix is formed this many bytes at a time.
DEVICE_COL_CHUNK_BYTES = 64 * 1024 * 1024

# The one process-wide step of the engine, made here, at import, rather than inside a
# call: glibc's malloc keeps the engine's large freed buffers (see utils/allocator.py;
# on the benchmark convnet ~4,000 page faults and 13 ms of system time per step fewer).
MALLOC_TUNED = allocator.tune_malloc()


# -- the 2-D functions' shared pieces ----------------------------------------------------

# Messages of the keyword arguments Chainer 7 removed from the 2-D functions.
DETERMINISTIC_MSG = (
    "deterministic argument is not supported anymore. "
    "Use chainer.using_config('cudnn_deterministic', value) context "
    "where value is either `True` or `False`.")
REQUIRES_X_GRAD_MSG = (
    "requires_x_grad argument is not supported anymore. Just remove the argument. "
    "Note that whether to compute the gradient w.r.t. x is automatically decided "
    "during backpropagation.")


def as_pair(x):
    """`x` if it is indexable (a pair), else `(x, x)`."""
    if hasattr(x, '__getitem__'):
        return x
    return x, x


class TwoDAttributes(object):
    """Chainer's 2-D attribute names (`sy, sx, ph, pw, dy, dx`) over the N-d tuples."""

    sy = property(lambda self: self.stride[0])
    sx = property(lambda self: self.stride[1])
    ph = property(lambda self: self.pad[0])
    pw = property(lambda self: self.pad[1])
    dy = property(lambda self: self.dilate[0])
    dx = property(lambda self: self.dilate[1])



# -- argument checks -------------------------------------------------------------------

def _shape_note(x_shape):
    return '' if x_shape is None else ' (input shape {})'.format(tuple(x_shape))


def as_ints(owner, name, value, ndim, minimum, x_shape=None):
    """`value` (an int or `ndim` ints) as a tuple of ints >= `minimum`.

    Raises:
        ValueError: naming `owner`, the argument, its value and the input shape.
    """
    if isinstance(value, numbers.Integral):
        values = (int(value),) * ndim
    else:
        try:
            values = tuple(value)
        except TypeError:
            values = None
        if (values is None or len(values) != ndim
                or not all(isinstance(v, numbers.Integral) for v in values)):
            raise ValueError('{}: {} must be an int or a sequence of length {} of ints, got {!r}{}'
                             .format(owner, name, ndim, value, _shape_note(x_shape)))
        values = tuple(int(v) for v in values)
    if any(v < minimum for v in values):
        kind = 'positive' if minimum == 1 else 'non-negative'
        raise ValueError('{}: {} must be {}, got {!r}{}'.format(
            owner, name, kind, value, _shape_note(x_shape)))
    return values


def _check_groups(owner, groups, x_shape=None):
    if not isinstance(groups, numbers.Integral) or groups < 1:
        raise ValueError('{}: groups must be a positive int, got {!r}{}'.format(
            owner, groups, _shape_note(x_shape)))
    return int(groups)


def parse_params(owner, ndim, stride, pad, dilate, groups, x_shape=None):
    """Validated `(stride, pad, dilate, groups)` tuples of a convolution."""
    return (as_ints(owner, 'stride', stride, ndim, 1, x_shape),
            as_ints(owner, 'pad', pad, ndim, 0, x_shape),
            as_ints(owner, 'dilate', dilate, ndim, 1, x_shape),
            _check_groups(owner, groups, x_shape))


def spatial_ndim(owner, x):
    ndim = len(x.shape) - 2
    if ndim < 1:
        raise ValueError('{}: x must have a batch, a channel and at least one spatial '
                         'axis, got shape {}'.format(owner, tuple(x.shape)))
    return ndim


def conv_out_dims(owner, x_shape, ksize, stride, pad, dilate, cover_all):
    """Output sizes of a convolution of `x_shape` by `ksize`.

    Raises:
        ConvolutionShapeError: a zero kernel size, or a (dilated) kernel larger than
            the padded input.
    """
    if any(k < 1 for k in ksize):
        raise ConvolutionShapeError('{}: the kernel size must be positive, got {} '
                                    '(input shape {})'.format(owner, tuple(ksize),
                                                              tuple(x_shape)))
    outs = tuple(conv.get_conv_outsize(d, k, s, p, cover_all=cover_all, d=di)
                 for d, k, s, p, di in zip(x_shape[2:], ksize, stride, pad, dilate))
    if any(o <= 0 for o in outs):
        raise ConvolutionShapeError(
            '{}: the kernel {} (dilate {}) is larger than the padded input: input shape '
            '{}, pad {}, stride {} give output size {}'.format(
                owner, tuple(ksize), dilate, tuple(x_shape), pad, stride, outs))
    return outs


def check_channels(owner, groups, in_channels, out_channels, x_shape):
    if in_channels % groups or out_channels % groups:
        raise ConvolutionShapeError(
            '{}: groups ({}) must divide the input channels ({}) and the output '
            'channels ({}) (input shape {})'.format(
                owner, groups, in_channels, out_channels, tuple(x_shape)))


def check_x_W_types(in_types, ndim):
    """Type check shared by the (de)convolutions: 2 or 3 inputs, `x` and `W` of a
    float dtype with `ndim` axes.

    Returns:
        tuple: `(n_in, x_type, w_type)` for the function's own checks.
    """
    n_in, x_type, w_type = checks.expect_x_W(in_types)
    type_check.expect(
        x_type.ndim == ndim,
        w_type.ndim == ndim,
    )
    return n_in, x_type, w_type


def check_b_type(in_types, n_in, x_type, out_channels, same_dtype):
    """Type check of the optional bias: 1-D with `out_channels` elements, of `x`'s
    dtype when `same_dtype` (the 2-D functions) else of any float dtype (the N-d ones,
    which cast it into the output's dtype, as in Chainer)."""
    checks.expect_bias(in_types, n_in, x_type, out_channels, same_dtype)


def check_groups_type(owner, in_types, groups, channels_axis_type):
    """Raise a ValueError (before the shape expectations) when `groups` does not
    divide the channel count of `x`."""
    if groups == 1:
        return
    channels = type_check.eval(channels_axis_type)
    if channels % groups:
        raise ConvolutionShapeError(
            '{}: groups ({}) must divide the input channels ({}) (input shape {})'.format(
                owner, groups, channels, tuple(type_check.eval(in_types[0].shape))))


# -- array kernels (arrays in, arrays out) ----------------------------------------------

def matmul(a, b, xp):
    """`a @ b` for 2-D operands, batched over the groups axis for 3-D ones.

    A product over one term (a depthwise convolution's data gradient) is the broadcast
    outer product: the same values (no sum to round), where BLAS and NumPy's matmul
    loop measured 4-5x slower."""
    if a.shape[-1] == 1:
        return xp.multiply(a, b)
    if a.ndim == 2:
        return a.dot(b)
    if a.shape[0] == 1:
        return a[0].dot(b[0])[None]
    return xp.matmul(a, b)


def channel_major(a):
    """(n, c, d...) -> (c, n * prod(d)), free when `a` already is in that memory order."""
    return a.swapaxes(0, 1).reshape(a.shape[1], -1)


def grouped(m, groups):
    """A (rows, cols) matrix as (groups, rows / groups, cols) or, for 1 group, itself."""
    if groups == 1:
        return m
    return m.reshape(groups, m.shape[0] // groups, m.shape[1])


def conv_forward(x, W, b, stride, pad, dilate, outs, groups, xp):
    """Return `(y, col)`: y (n, oc, o...) as a view, col (c, k..., n, o...)."""
    n = x.shape[0]
    out_c = W.shape[0]
    col = conv_nd.patches_cn(x, W.shape[2:], stride, pad, dilate, outs)
    npix = col.size // (W.size // out_c * groups)
    y = matmul(grouped(W.reshape(out_c, -1), groups),
                col.reshape(groups, -1, npix) if groups > 1 else col.reshape(-1, npix), xp)
    if y.dtype != x.dtype:
        y = y.astype(x.dtype, copy=False)
    y = y.reshape((out_c, n) + tuple(outs))
    if b is not None:
        y += b.reshape((out_c,) + (1,) * (len(outs) + 1)).astype(y.dtype, copy=False)
    return y.swapaxes(0, 1), col


def conv_grad_w(col, gy_cn, W_shape, groups, w_dtype, xp):
    """gW (oc, c/G, k...) from col (c, k..., n, o...) and gy_cn (oc, n * prod(o)).

    The long (n * prod(o)) axis is summed over either way; the product is formed with
    the larger of the filter's two sides as the rows of its result (`col @ gy.T`, then a
    transposing copy of the small gW, when the patches have more rows than `gy`):
    OpenBLAS measured 20-30% faster that way at 288 x 64 (and no slower at 27 x 32 on
    one thread, where two threads prefer the other orientation).
    """
    npix = gy_cn.shape[1]
    col2 = col.reshape(groups, -1, npix) if groups > 1 else col.reshape(-1, npix)
    gy2 = grouped(gy_cn, groups)
    if col2.shape[-2] > gy2.shape[-2]:
        gW = matmul(col2, gy2.swapaxes(-1, -2), xp).swapaxes(-1, -2)
    else:
        gW = matmul(gy2, col2.swapaxes(-1, -2), xp)
    gW = gW.reshape(W_shape)
    if gW.dtype != w_dtype:
        gW = gW.astype(w_dtype, copy=False)
    return gW


def deconv_forward(x_cn, W, b, x_shape, stride, pad, dilate, outs, groups, dtype, xp):
    """Transposed convolution of x_cn (c, n * prod(d)) by W (c, oc/G, k...) into
    (n, oc, outs...) (a view); `x_shape` is the (n, c, d...) shape of `x`.

    `gcol = W.T @ x` is computed for as many images at a time as fit in
    `GCOL_CHUNK_BYTES` and added into the output right away, which bounds the
    temporary for large inputs.
    """
    c = W.shape[0]
    ksize = tuple(W.shape[2:])
    out_c = W.shape[1] * groups
    n = x_shape[0]
    in_dims = tuple(x_shape[2:])
    per_image = x_cn.shape[1] // n
    w2 = W.reshape(c, -1)
    wt = w2.T if groups == 1 else grouped(w2, groups).transpose(0, 2, 1)
    if conv_nd.pointwise(ksize, stride, pad, outs, in_dims):
        # the product is the output itself (no col2im; it is no larger than the output)
        img = matmul(wt, grouped(x_cn, groups), xp)
        if img.dtype != dtype:
            img = img.astype(dtype, copy=False)
        img = img.reshape((out_c, n) + tuple(outs))
    else:
        img = xp.zeros((out_c, n) + tuple(outs), dtype=dtype)  # (oc, n, outs...)
        rows = w2.shape[1] * groups
        chunk = max(1, GCOL_CHUNK_BYTES // (rows * per_image * x_cn.itemsize))
        for n0 in range(0, n, chunk):
            n1 = min(n, n0 + chunk)
            x_part = x_cn if n1 - n0 == n else x_cn[:, n0 * per_image:n1 * per_image]
            gcol = matmul(wt, grouped(x_part, groups), xp)
            if gcol.dtype != dtype:
                gcol = gcol.astype(dtype, copy=False)
            gcol = gcol.reshape((out_c,) + ksize + (n1 - n0,) + in_dims)
            conv_nd.col2im_add(img[:, n0:n1], gcol, stride, pad, dilate,
                               overwrite_col=True, zeroed=True)
    y = img.swapaxes(0, 1)
    if b is not None:
        y += b.reshape((1, out_c) + (1,) * len(outs)).astype(y.dtype, copy=False)
    return y


def deconv_by_conv_ok(x, W, stride, pad, dilate, outs, groups):
    """Whether `deconv_forward_by_conv` computes this transposed convolution: stride 1,
    one group, `x` and `W` of one dtype, `pad` within the dilated kernel, `outs` the
    natural output size, and at most `DECONV_BY_CONV_RATIO` times as many input as output
    channels (its patch matrix has `x`'s channels, col2im's has the output's)."""
    if groups != 1 or any(s != 1 for s in stride) or x.dtype != W.dtype:
        return False
    if conv_nd.pointwise(W.shape[2:], stride, pad, outs, x.shape[2:]):
        return False   # `deconv_forward` takes the product as the output, no patches
    if x.shape[1] > DECONV_BY_CONV_RATIO * W.shape[1]:
        return False
    for d, o, k, p, di in zip(x.shape[2:], outs, W.shape[2:], pad, dilate):
        if p > (k - 1) * di or o != d + (k - 1) * di - 2 * p:
            return False
    return True


def deconv_forward_by_conv(x, W, b, pad, dilate, outs, xp):
    """Stride-1 transposed convolution of x (n, c, d...) by W (c, oc, k...) as the
    convolution of x, zero-padded by `(k - 1) * dilate - pad`, with the spatially
    flipped, in/out-transposed filter: one im2col copy and one GEMM, no col2im.

    The patches are taken for as many images at a time as fit in `COL_CHUNK_BYTES`,
    each chunk's product written straight into the (oc, n, outs...) result.
    Returns an (n, oc, outs...) view.
    """
    n, c = x.shape[:2]
    ksize = tuple(W.shape[2:])
    out_c = W.shape[1]
    ndim = len(ksize)
    flip = (slice(None), slice(None)) + (slice(None, None, -1),) * ndim
    w2 = W[flip].swapaxes(0, 1).reshape(out_c, -1)  # (oc, c * prod(k)), one small copy
    full_pad = tuple((k - 1) * di - p for k, di, p in zip(ksize, dilate, pad))
    ones = (1,) * ndim
    src = conv_nd.padded_source(x, ksize, ones, full_pad, dilate, outs)  # (c, n, d'...)
    y = xp.empty((out_c, n) + tuple(outs), dtype=x.dtype)
    rows = w2.shape[1]
    per_image = rows * y[0, 0].size * x.itemsize
    chunk = max(1, (COL_CHUNK_BYTES if xp is numpy else DEVICE_COL_CHUNK_BYTES)
                // per_image)
    for n0 in range(0, n, chunk):
        n1 = min(n, n0 + chunk)
        view = conv_nd.patches_view(src[:, n0:n1], ksize, ones, dilate, outs)
        col = xp.empty(view.shape, dtype=x.dtype)
        col[...] = view
        xp.matmul(w2, col.reshape(rows, -1), out=y[:, n0:n1].reshape(out_c, -1))
    if b is not None:
        y += b.reshape((out_c,) + (1,) * (ndim + 1)).astype(y.dtype, copy=False)
    return y.swapaxes(0, 1)


def bias_grad(gy, b_node):
    gb = _sum(gy, axis=(0,) + tuple(range(2, gy.ndim)))
    if gb.dtype != b_node.dtype:
        gb = cast(gb, b_node.dtype)
    return gb


# -- function nodes ---------------------------------------------------------------------

class ConvolutionND(function_node.FunctionNode):
    """FunctionNode of every convolution:
    [`convolution_nd`][minichainer.functions.connection.convolution_nd.convolution_nd] and, through
    `Convolution2DFunction`,
    [`convolution_2d`][minichainer.functions.connection.convolution_2d.convolution_2d].

    Unlike Chainer, the im2col buffer of the forward pass (when at most
    `COL_CACHE_MAX_BYTES`) is kept until the filter gradient is computed, so backward
    does not redo im2col (faster, more memory).
    """

    _col = None
    _owner = 'convolution_nd'
    _bias_same_dtype = False

    def __init__(self, ndim, stride=1, pad=0, cover_all=False, dilate=1, groups=1):
        self.ndim = ndim
        self.stride, self.pad, self.dilate, self.groups = parse_params(
            self._owner, ndim, stride, pad, dilate, groups)
        self.cover_all = cover_all

    def check_type_forward(self, in_types):
        if type_check.eval(in_types.size()) >= 2:
            check_groups_type(self._owner, in_types, self.groups, in_types[0].shape[1])
        n_in, x_type, w_type = check_x_W_types(in_types, self.ndim + 2)
        type_check.expect(x_type.shape[1] == w_type.shape[1] * self.groups)
        check_b_type(in_types, n_in, x_type, w_type.shape[0], self._bias_same_dtype)

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x, W = inputs[:2]
        b = inputs[2] if len(inputs) == 3 else None
        check_channels(self._owner, self.groups, x.shape[1], W.shape[0], x.shape)
        outs = conv_out_dims(self._owner, x.shape, W.shape[2:], self.stride, self.pad,
                              self.dilate, self.cover_all)
        xp = backend.get_array_module(x)
        y, col = conv_forward(x, W, b, self.stride, self.pad, self.dilate, outs,
                               self.groups, xp)
        if col.nbytes <= COL_CACHE_MAX_BYTES or not col.flags.owndata:
            self._col = col   # (a view of x, for a pointwise kernel, costs nothing)
        return y,

    def backward(self, indexes, grad_outputs):
        x, W = self.get_retained_inputs()
        gy, = grad_outputs
        ret = []
        # gy in channel-major layout, shared by the data and the filter gradients
        gy_cn = channel_major(gy.array) if (0 in indexes and 1 in indexes) else None
        if 1 in indexes:
            # first, so that the cached col is freed before the data gradient's buffers
            gW, = ConvolutionNDGradW(self, gy_cn=gy_cn).apply((x, gy))
        if 0 in indexes:
            func = DeconvolutionND(self.ndim, self.stride, self.pad, x.shape[2:],
                                   self.dilate, self.groups, x_cn=gy_cn)
            gx, = func.apply((gy, W))
            ret.append(gx)
        if 1 in indexes:
            ret.append(gW)
        if 2 in indexes:
            ret.append(bias_grad(gy, self.inputs[2]))
        return ret


class ConvolutionNDGradW(function_node.FunctionNode):
    """Gradient of a convolution w.r.t. its filter; inputs `(x, gy)`.

    Built from the convolution's node (or, for a deconvolution's filter gradient, from
    the deconvolution's node with `(gy, x)` as inputs). `patches_of`, when given, is a
    `ConvolutionND` node whose forward took the patches of this node's first input (a
    deconvolution's `gy`, convolved for its data gradient): its im2col buffer is taken
    over instead of `conv_node`'s. `gy_cn`, when given, is this node's second input in
    channel-major order (`channel_major(gy)`), computed once by the backward that builds
    this node and the data gradient's `DeconvolutionND`.
    """

    def __init__(self, conv_node, patches_of=None, gy_cn=None):
        self._gy_cn = gy_cn
        W_node = conv_node.inputs[1]
        self.ndim = len(W_node.shape) - 2
        self.W_shape = W_node.shape
        self.ksize = W_node.shape[2:]
        self.stride = conv_node.stride
        self.pad = conv_node.pad
        self.dilate = conv_node.dilate
        self.cover_all = conv_node.cover_all
        self.groups = conv_node.groups
        self.W_dtype = W_node.dtype
        # Reuse the forward pass' im2col buffer once (freed afterwards).
        source = conv_node if patches_of is None else patches_of
        self._col = getattr(source, '_col', None)
        if self._col is not None:
            source._col = None

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x, gy = inputs
        col = self._col
        self._col = None
        outs = gy.shape[2:]
        if (col is None or col.shape[self.ndim + 2:] != outs
                or col.shape[self.ndim + 1] != x.shape[0]):
            col = conv_nd.patches_cn(x, self.ksize, self.stride, self.pad, self.dilate,
                                     outs)
        gy_cn = self._gy_cn
        self._gy_cn = None
        if gy_cn is None:
            gy_cn = channel_major(gy)
        xp = backend.get_array_module(x)
        # The filter may belong to a deconvolution: (c_in, c_out / G, k...) there.
        shape = (gy.shape[1], x.shape[1] // self.groups) + tuple(self.ksize)
        return conv_grad_w(col, gy_cn, shape, self.groups, self.W_dtype, xp),

    def backward(self, indexes, grad_outputs):
        x, gy = self.get_retained_inputs()
        ggW, = grad_outputs
        ret = []
        if 0 in indexes:
            gx, = DeconvolutionND(self.ndim, self.stride, self.pad, x.shape[2:],
                                  self.dilate, self.groups).apply((gy, ggW))
            ret.append(gx)
        if 1 in indexes:
            ggy, = ConvolutionND(self.ndim, self.stride, self.pad, self.cover_all,
                                 dilate=self.dilate, groups=self.groups).apply((x, ggW))
            ret.append(ggy)
        return ret


# Raise ValueError unless `x` has exactly `ndim` spatial axes (shared with the poolings).
check_spatial_ndim = conv_nd.check_spatial_ndim


class DeconvolutionND(function_node.FunctionNode):
    """FunctionNode of every deconvolution:
    [`deconvolution_nd`][minichainer.functions.connection.deconvolution_nd.deconvolution_nd] and,
    through `Deconvolution2DFunction`,
    [`deconvolution_2d`][minichainer.functions.connection.deconvolution_2d.deconvolution_2d]."""

    cover_all = None
    _owner = 'deconvolution_nd'
    _bias_same_dtype = False

    def __init__(self, ndim, stride=1, pad=0, outsize=None, dilate=1, groups=1, x_cn=None):
        # x_cn: this node's first input in channel-major order (`channel_major(x)`), when
        # the convolution backward that builds it has it already
        self._x_cn = x_cn
        self.ndim = ndim
        self.stride, self.pad, self.dilate, self.groups = parse_params(
            self._owner, ndim, stride, pad, dilate, groups)
        self.outs = None if outsize is None else tuple(outsize)
        if self.outs is not None and len(self.outs) != ndim:
            raise ValueError('{}: outsize must have {} elements, got {!r}'.format(
                self._owner, ndim, outsize))

    def check_type_forward(self, in_types):
        if type_check.eval(in_types.size()) >= 2:
            check_groups_type(self._owner, in_types, self.groups,
                                       in_types[0].shape[1])
        n_in, x_type, w_type = check_x_W_types(in_types, self.ndim + 2)
        type_check.expect(x_type.shape[1] == w_type.shape[0])
        if self.outs is not None:
            for i, (out, s, p, di) in enumerate(zip(
                    self.outs, self.stride, self.pad, self.dilate)):
                if out is None:
                    continue
                lower = conv.get_conv_outsize(out, w_type.shape[i + 2], s, p, d=di)
                upper = conv.get_conv_outsize(out, w_type.shape[i + 2], s, p,
                                              cover_all=True, d=di)
                type_check.expect(lower <= x_type.shape[i + 2],
                                  x_type.shape[i + 2] <= upper)
        check_b_type(in_types, n_in, x_type, w_type.shape[1] * self.groups,
                              self._bias_same_dtype)

    def _out_dims(self, x, W):
        """`outsize`, or the deconvolution's natural output size (Chainer's rule) on
        the axes where it is not given (`None`)."""
        ksize = W.shape[2:]
        if any(k < 1 for k in ksize):
            raise ConvolutionShapeError('{}: the kernel size must be positive, got {} '
                                        '(input shape {})'.format(
                                            self._owner, tuple(ksize), x.shape))
        given = self.outs or (None,) * self.ndim
        if None not in given:
            return given
        outs = tuple(conv.get_deconv_outsize(d, k, s, p, d=di) if o is None else o
                     for o, d, k, s, p, di in zip(given, x.shape[2:], ksize, self.stride,
                                                  self.pad, self.dilate))
        if any(o <= 0 for o in outs):
            raise ConvolutionShapeError(
                '{}: output size {} is not positive: input shape {}, kernel {}, '
                'stride {}, pad {}, dilate {}'.format(
                    self._owner, outs, x.shape, tuple(ksize), self.stride, self.pad,
                    self.dilate))
        return outs

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x, W = inputs[:2]
        b = inputs[2] if len(inputs) == 3 else None
        check_channels(self._owner, self.groups, x.shape[1],
                                W.shape[1] * self.groups, x.shape)
        self.outs = self._out_dims(x, W)
        ksize = W.shape[2:]
        self.cover_all = any(
            d != conv.get_conv_outsize(o, k, s, p, d=di) for d, o, k, s, p, di in
            zip(x.shape[2:], self.outs, ksize, self.stride, self.pad, self.dilate))
        x_cn = self._x_cn
        self._x_cn = None
        xp = backend.get_array_module(x)
        if deconv_by_conv_ok(x, W, self.stride, self.pad, self.dilate, self.outs,
                                      self.groups):
            return deconv_forward_by_conv(x, W, b, self.pad, self.dilate,
                                                   self.outs, xp),
        if x_cn is None:
            x_cn = channel_major(x)
        y = deconv_forward(x_cn, W, b, x.shape, self.stride, self.pad,
                                    self.dilate, self.outs, self.groups, x.dtype, xp)
        return y,

    def backward(self, indexes, grad_outputs):
        x, W = self.get_retained_inputs()
        gy, = grad_outputs
        ret = []
        conv_node = None
        if 0 in indexes:
            conv_node = ConvolutionND(self.ndim, self.stride, self.pad, self.cover_all,
                                         dilate=self.dilate, groups=self.groups)
            gx, = conv_node.apply((gy, W))
            ret.append(gx)
        if 1 in indexes:
            # the filter gradient needs the patches of gy that the data gradient took
            gW, = ConvolutionNDGradW(self, patches_of=conv_node).apply((gy, x))
            ret.append(gW)
        if 2 in indexes:
            ret.append(bias_grad(gy, self.inputs[2]))
        return ret
