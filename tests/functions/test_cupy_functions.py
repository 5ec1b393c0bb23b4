"""Every public function of `minichainer.functions` on CuPy arrays (issue 33).

Each case runs forward, backward and (where the function supports it) double backward
twice: on NumPy arrays, and on `@cupy:0` arrays from the `cupy_device` fixture (the CuPy
test double on the CPU; real CuPy when `MINICHAINER_TEST_REAL_CUPY=1` on a GPU machine)
with every device-to-host copy forbidden. The device results must stay on the device and
equal the NumPy ones to float tolerance. Randomised functions (their draws come from the
device's generator) are checked for shapes, dtypes, finiteness and their own identities.

The inputs reuse the table of `test_dtype_sweep.py` (its unary names and `MULTI` cases),
extended below with the functions it does not hold; `test_cupy_table_covers_every_function`
holds the union to every public function.
"""
import importlib.util
import inspect
import math
import pathlib

import numpy
import pytest

import minichainer
import minichainer.functions as F
from minichainer import backend
from minichainer import utils
from minichainer import Variable


def _load_sweep():
    path = pathlib.Path(__file__).with_name('test_dtype_sweep.py')
    spec = importlib.util.spec_from_file_location('_cupy_sweep_table', path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


sweep = _load_sweep()
_u, _pos, _int, _spd = sweep._u, sweep._pos, sweep._int, sweep._spd
_wc = sweep._well_conditioned
S = sweep.S


def _xp(x):
    return backend.get_array_module(x)


def _const(values, dtype='i'):
    """A maker of a fixed (host) array."""
    def make(d, r):
        return numpy.array(values, dtype)
    return make


def _labels(shape, hi, ignore=None):
    """Int labels in [0, hi), the first one `ignore` when given."""
    def make(d, r):
        t = r.randint(0, hi, shape).astype(numpy.int32)
        if ignore is not None:
            t.flat[0] = ignore
        return t
    return make


class Case:
    __slots__ = ('fn', 'makers', 'double', 'grad', 'random', 'dtype', 'host_reads')

    def __init__(self, fn, makers, double=True, grad=True, random=False, dtype=None,
                 host_reads=0):
        self.fn = fn
        self.makers = makers
        self.double = double
        self.grad = grad
        self.random = random
        self.dtype = dtype
        # at most this many scalar reads from the device, made by design (a size that
        # sets the shape of a result or temporary), counted with the double; 0: none
        # allowed at all (any read raises)
        self.host_reads = host_reads


CASES = {}
COVERS = {}     # case name -> the public functions it runs


def case(name, fn, makers, covers=None, **kwargs):
    CASES[name] = Case(fn, makers, **kwargs)
    COVERS[name] = covers if covers is not None else (name,)


# -------------------------------------------------------------- from the dtype sweep

def _unary_fn(fname):
    # cases whose table entry holds host constants: their device-friendly equivalent
    special = {
        'swish': lambda x: F.swish(x, Variable(_xp(x).full(x.shape[1:2], 0.7, x.dtype)))
        if x.ndim else F.swish(F.reshape(x, (1, 1)),
                               Variable(_xp(x).full((1,), 0.7, x.dtype))),
        'polygamma1': lambda x: F.polygamma(_xp(x).asarray(1, numpy.int32), x),
        'zeta2': lambda x: F.zeta(x + 2, _xp(x).full(x.shape, 1.5, x.dtype)),
        # to the array's own device (the copy to the host is test_cupy_copy_to_host)
        'copy': lambda x: F.copy(x, backend.get_device_from_array(x.array)),
    }
    return special.get(fname) or sweep._unary(fname)


_UNARY_COVERS = {'expand_dims_0': 'expand_dims', 'tile2': 'tile', 'repeat2': 'repeat',
                 'flip0': 'flip', 'fliplr_': 'fliplr', 'flipud_': 'flipud', 'copy': 'copy',
                 'atleast_pad': 'pad', 'polygamma1': 'polygamma', 'zeta2': 'zeta',
                 'abs_op': 'absolute'}

for _name, (_fname, _shape) in sorted(sweep.CASES.items()):
    _maker = sweep._pos(_shape) if _fname in sweep.POSITIVE else sweep._u(_shape)
    if _shape == () and _fname in ('logsumexp', 'cumprod', 'cumsum'):
        continue   # needs an axis (as in the sweep)
    _cov = _UNARY_COVERS.get(_fname, _fname)
    case(_name, _unary_fn(_fname), [_maker],
         covers=(_cov,) if hasattr(F, _cov) else (),
         double=_fname not in sweep.NO_DOUBLE,
         grad=_fname not in sweep.NOT_DIFFERENTIABLE,
         random=_fname == 'rrelu')

_MULTI_OVERRIDES = {
    'where_0d': (lambda x, y: F.where(_xp(x).asarray(True), x, y), None),
    'permutate': (lambda x: F.permutate(x, _xp(x).asarray([2, 0, 1], 'i')), None),
}
_MULTI_COVERS = {
    'huber_loss_sum': 'huber_loss', 'contrastive_no_reduce': 'contrastive',
    'triplet_no_reduce': 'triplet', 'hinge_l1': 'hinge', 'hinge_l2': 'hinge',
    'hinge_no_reduce': 'hinge', 'sigmoid_cross_entropy_no_norm': 'sigmoid_cross_entropy',
    'softmax_cross_entropy_no_norm': 'softmax_cross_entropy',
    'softmax_cross_entropy_soft': 'softmax_cross_entropy',
    'gaussian_kl_divergence_mean': 'gaussian_kl_divergence', 'gaussian_nll_mean':
    'gaussian_nll', 'bernoulli_nll_mean': 'bernoulli_nll',
    'cross_covariance_no_reduce': 'cross_covariance', 'decov_no_reduce': 'decov',
    'ctc': 'connectionist_temporal_classification',
    'discriminative_loss': 'discriminative_margin_based_clustering_loss',
    'maximum_0d': 'maximum', 'minimum_0d': 'minimum', 'squared_difference_0d':
    'squared_difference', 'fmod_0d': 'fmod', 'arctan2_0d': 'arctan2',
    'linear_interpolate_0d': 'linear_interpolate', 'add_var': 'add', 'mul_var': (),
    'div_var': (), 'pow_var': (), 'add_n': 'add', 'average_weighted': 'average',
    'average_0d': 'average', 'logsumexp_axis': 'logsumexp', 'normalize_small': 'normalize',
    'where_0d': 'where', 'get_item_0d': 'get_item', 'pad_edge': 'pad',
    'resize_images_align': 'resize_images', 'softplus_beta': 'softplus',
    'softplus_beta_0d': 'softplus', 'elu_alpha_0d': 'elu', 'leaky_relu_0d': 'leaky_relu',
    'selu_0d': 'selu', 'hard_sigmoid_0d': 'hard_sigmoid', 'dropout_0d': 'dropout',
}
_RANDOM = {'dropout', 'dropout_0d', 'gaussian', 'gumbel_softmax', 'simplified_dropconnect',
           'zoneout'}

for _name, (_fn, _makers) in sorted(sweep.MULTI.items()):
    _fn = _MULTI_OVERRIDES.get(_name, (_fn,))[0]
    _cov = _MULTI_COVERS.get(_name, _name)
    _cov = (_cov,) if isinstance(_cov, str) else _cov
    case(_name, _fn, _makers, covers=_cov, double=_name not in sweep.NO_DOUBLE_MULTI,
         random=_name in _RANDOM,
         dtype=numpy.float32 if _name in sweep.FLOAT32_ONLY else None)


# -------------------------------------------------------------- the rest of F

def _split(n):
    """Cut a flat argument list into groups of sizes `n`."""
    def cut(args):
        out, i = [], 0
        for k in n:
            out.append(list(args[i:i + k]))
            i += k
        return out
    return cut


# evaluation (not differentiable)
case('accuracy', F.accuracy, [_u((4, 3)), _labels((4,), 3)], grad=False)
case('accuracy_ignore', lambda y, t: F.accuracy(y, t, ignore_label=-1),
     [_u((4, 3)), _labels((4,), 3, ignore=-1)], covers=('accuracy',), grad=False)
case('accuracy_all_ignored', lambda y, t: F.accuracy(y, t, ignore_label=-1),
     [_u((2, 3)), _const([-1, -1])], covers=('accuracy',), grad=False)
case('binary_accuracy', F.binary_accuracy, [_u((4, 3)), _const([[0, 1, -1]] * 4)],
     grad=False)
case('classification_summary', lambda y, t: F.classification_summary(y, t, label_num=3),
     [_u((6, 3)), _labels((6,), 3)], grad=False)
case('precision', lambda y, t: F.precision(y, t, label_num=3)[0],
     [_u((6, 3)), _labels((6,), 3)], grad=False)
case('recall', lambda y, t: F.recall(y, t, label_num=3)[0],
     [_u((6, 3)), _labels((6,), 3)], grad=False)
case('f1_score', lambda y, t: F.f1_score(y, t, label_num=3)[0],
     [_u((6, 3)), _labels((6,), 3)], grad=False)
case('r2_score', F.r2_score, [_u((4, 3)), _u((4, 3))], grad=False)
case('argmax', lambda x: F.argmax(x, axis=1), [_u((3, 4))], grad=False)
case('argmin', lambda x: F.argmin(x, axis=1), [_u((3, 4))], grad=False)
case('argmax_crf1d', lambda c, x0, x1: F.argmax_crf1d(c, [x0, x1]),
     [_u((3, 3)), _u((2, 3)), _u((2, 3))], grad=False)

# array
case('as_strided', lambda x: F.as_strided(x, (3, 2), (1, 1)), [_u((4,))])
# a view: the offset is measured from its memory block's start (the device pointers)
case('as_strided_view', lambda x: F.as_strided(x[1:], (2, 2), (1, 2)) + F.as_strided(
    x[2:], (2,), (1,), storage_offset=0), [_u((6,))], covers=('as_strided',))
case('cast', lambda x: F.cast(x, numpy.float32), [_u(S)], dtype=numpy.float64)
case('pad_sequence', lambda a, b: F.pad_sequence([a, b], padding=0.5),
     [_u((3, 2)), _u((2, 2))])

# math
case('einsum', lambda a, b: F.einsum('ij,jk->ik', a, b), [_u((2, 3)), _u((3, 2))])
case('einsum_trace', lambda a: F.einsum('ii->', a), [_u((3, 3))], covers=('einsum',))
case('fft', lambda r, i: F.fft((r, i)), [_u((2, 4)), _u((2, 4))])
case('ifft', lambda r, i: F.ifft((r, i)), [_u((2, 4)), _u((2, 4))])
def _coo(d, rows, cols, shape, order):
    """A CooMatrix whose data is the Variable `d` (so that its gradient is compared)."""
    xp = _xp(d.array)
    coo = utils.CooMatrix(d.array, xp.asarray(rows, 'i'), xp.asarray(cols, 'i'), shape,
                          order=order)
    coo.data = d
    return coo


case('sparse_matmul', lambda d, b: F.sparse_matmul(
    _coo(d, [0, 1, 2, 2, -1], [1, 0, 2, 2, -1], (3, 3), 'C'), b), [_u((5,)), _u((3, 2))])
case('forget', lambda a, b: F.forget(lambda p, q: F.tanh(p) * q + p, a, b),
     [_u(S), _u(S)], double=False)

# connection
case('bilinear', F.bilinear, [_u((2, 3)), _u((2, 4)), _u((3, 4, 5)), _u((3, 5)),
                              _u((4, 5)), _u((5,))])
case('convolution_1d', lambda x, w, b: F.convolution_1d(x, w, b, pad=1),
     [_u((1, 2, 5)), _u((3, 2, 2)), _u((3,))])
case('convolution_3d', lambda x, w: F.convolution_3d(x, w, stride=2),
     [_u((1, 2, 4, 4, 3)), _u((2, 2, 2, 2, 2))])
case('convolution_nd', lambda x, w: F.convolution_nd(x, w, dilate=2),
     [_u((1, 2, 5, 5)), _u((2, 2, 2, 2))])
case('convolution_2d_groups', lambda x, w: F.convolution_2d(x, w, groups=2, pad=1),
     [_u((1, 4, 3, 3)), _u((4, 2, 2, 2))], covers=('convolution_2d',))
case('deconvolution_1d', lambda x, w, b: F.deconvolution_1d(x, w, b, stride=2),
     [_u((1, 2, 3)), _u((2, 3, 2)), _u((3,))])
case('deconvolution_3d', F.deconvolution_3d, [_u((1, 2, 2, 2, 2)), _u((2, 1, 2, 2, 2))])
case('deconvolution_nd', lambda x, w: F.deconvolution_nd(x, w, stride=2, pad=1),
     [_u((1, 2, 3, 3)), _u((2, 2, 3, 3))])
case('depthwise_convolution_2d', F.depthwise_convolution_2d,
     [_u((1, 2, 4, 4)), _u((2, 2, 2, 2)), _u((4,))])
case('dilated_convolution_2d', lambda x, w, b: F.dilated_convolution_2d(x, w, b, dilate=2),
     [_u((1, 2, 5, 5)), _u((3, 2, 2, 2)), _u((3,))])
case('local_convolution_2d', F.local_convolution_2d,
     [_u((1, 2, 3, 3)), _u((2, 2, 2, 2, 2, 2)), _u((2, 2, 2))])
case('deformable_convolution_2d_sampler', F.deformable_convolution_2d_sampler,
     [_u((1, 2, 4, 4)), _u((1, 8, 3, 3)), _u((3, 2, 2, 2)), _u((3,))], double=False)
case('shift', lambda x: F.shift(x, 3), [_u((1, 9, 4, 4))])


def _n_step(fn, n_w, bi, cell_state):
    """Builds `fn(n_layers=1, dropout 0, hx[, cx], ws, bs, xs)` from flat arguments."""
    dirs = 2 if bi else 1

    def run(*args):
        args = list(args)
        hx = args.pop(0)
        cx = args.pop(0) if cell_state else None
        ws = [args[d * n_w:(d + 1) * n_w] for d in range(dirs)]
        bs = [args[dirs * n_w + d * n_w:dirs * n_w + (d + 1) * n_w] for d in range(dirs)]
        xs = args[2 * dirs * n_w:]
        if cell_state:
            return fn(1, 0.0, hx, cx, ws, bs, xs)
        return fn(1, 0.0, hx, ws, bs, xs)

    makers = [_u((dirs, 3, 4))] + ([_u((dirs, 3, 4))] if cell_state else [])
    for _ in range(dirs):
        makers += [_u((4, 3)) if i < n_w // 2 else _u((4, 4)) for i in range(n_w)]
    makers += [_u((4,))] * (dirs * n_w)
    makers += [_u((3, 3)), _u((2, 3))]
    return run, makers


for _fname, _n_w, _bi, _cell in (('n_step_lstm', 8, False, True),
                                  ('n_step_bilstm', 8, True, True),
                                  ('n_step_gru', 6, False, False),
                                  ('n_step_bigru', 6, True, False),
                                  ('n_step_rnn', 2, False, False),
                                  ('n_step_birnn', 2, True, False)):
    _run, _makers = _n_step(getattr(F, _fname), _n_w, _bi, _cell)
    case(_fname, _run, _makers)

# losses
case('black_out', F.black_out, [_u((3, 4)), _labels((3,), 5), _u((5, 4)),
                                _const([[1, 2], [0, 3], [4, 4]])])


def _negative_sampling(x, t, w):
    xp = _xp(x)

    def sampler(shape):
        return (xp.arange(math.prod(shape), dtype=numpy.int32) % 5).reshape(shape)
    return F.negative_sampling(x, t, w, sampler, 2)


case('negative_sampling', _negative_sampling, [_u((3, 4)), _labels((3,), 5), _u((5, 4))])
case('negative_sampling_no_reduce', lambda x, t, w: F.negative_sampling(
    x, t, w, lambda shape: (_xp(x).arange(math.prod(shape), dtype=numpy.int32) % 5)
    .reshape(shape), 2, reduce='no'), [_u((3, 4)), _labels((3,), 5), _u((5, 4))],
     covers=('negative_sampling',))

# normalization
case('batch_renormalization', lambda x, g, b: F.batch_renormalization(
    x, g, b, rmax=1.5, dmax=0.5, running_mean=_xp(x).zeros(3, x.dtype),
    running_var=_xp(x).ones(3, x.dtype)), [_u((4, 3)), _pos((3,)), _u((3,))],
     double=False)
case('fixed_batch_normalization', F.fixed_batch_normalization,
     [_u((4, 3)), _pos((3,)), _u((3,)), _u((3,)), _pos((3,))])
case('fixed_batch_renormalization', F.fixed_batch_renormalization,
     [_u((4, 3)), _pos((3,)), _u((3,)), _u((3,)), _pos((3,))])
case('batch_normalization_4d', F.batch_normalization,
     [_u((2, 3, 2, 2)), _pos((3,)), _u((3,))], covers=('batch_normalization',))
case('decorrelated_batch_normalization',
     lambda x: F.decorrelated_batch_normalization(x, groups=2), [_u((6, 4))],
     double=False)
case('fixed_decorrelated_batch_normalization',
     lambda x, m, p: F.fixed_decorrelated_batch_normalization(x, m, p, groups=1),
     [_u((5, 3)), _u((1, 3)), _wc((1, 3, 3))])

# pooling
case('average_pooling_1d', lambda x: F.average_pooling_1d(x, 2), [_u((1, 2, 4))])
case('average_pooling_3d', lambda x: F.average_pooling_3d(x, 2, 1, 1),
     [_u((1, 1, 3, 3, 3))])
case('average_pooling_nd', lambda x: F.average_pooling_nd(x, 3, 2, 1, pad_value=None),
     [_u((1, 2, 5, 5))])
case('max_pooling_1d', lambda x: F.max_pooling_1d(x, 2), [_u((1, 2, 4))], double=False)
case('max_pooling_3d', lambda x: F.max_pooling_3d(x, 2), [_u((1, 1, 4, 4, 4))],
     double=False)
case('max_pooling_nd', lambda x: F.max_pooling_nd(x, 3, 2, 1), [_u((1, 2, 5, 5))],
     double=False)
case('max_pooling_2d_overlap', lambda x: F.max_pooling_2d(x, 3, 1, 1), [_u((1, 2, 4, 4))],
     covers=('max_pooling_2d',), double=False)
case('spatial_pyramid_pooling_2d', lambda x: F.spatial_pyramid_pooling_2d(x, 2, 'max'),
     [_u((1, 2, 4, 4))], double=False)
case('unpooling_1d', lambda x: F.unpooling_1d(x, 2), [_u((1, 2, 3))])
case('unpooling_2d', lambda x: F.unpooling_2d(x, 2, outsize=(5, 5)), [_u((1, 2, 3, 3))])
case('unpooling_3d', lambda x: F.unpooling_3d(x, 2), [_u((1, 1, 2, 2, 2))])
case('unpooling_nd', lambda x: F.unpooling_nd(x, 3, 2, 1), [_u((1, 2, 3, 3))])


def _upsampling(x):
    y, indexes = F.max_pooling_2d(x, 2, return_indices=True)
    return F.upsampling_2d(y, indexes, 2, outsize=x.shape[2:])


case('upsampling_2d', _upsampling, [_u((1, 2, 4, 4))], double=False)


def _rois(values):
    return _const(values, numpy.float64)


_BOXES = [[0.5, 0.5, 4.5, 5.0], [1.0, 0.0, 3.0, 2.0], [0.0, 2.0, 6.0, 6.0]]


def _roi_case(fname, **kw):
    fn = getattr(F, fname)

    def run(x, rois, idx):
        return fn(x, rois.array.astype(x.dtype), idx, 2, 1.0, **kw)
    return run


# The quantized ROI functions read the largest bin extent of each axis back to the host
# (it sets the shape of their temporaries); ROI align with a fixed sampling ratio reads
# nothing, with an adaptive one the largest sampling grid of each axis.
for _fname in ('roi_average_align_2d', 'roi_max_align_2d', 'roi_average_pooling_2d',
               'roi_max_pooling_2d'):
    _kw = {'sampling_ratio': 2} if 'align' in _fname else {}
    case(_fname, _roi_case(_fname, **_kw),
         [_u((2, 2, 6, 6)), _rois(_BOXES), _const([0, 1, 1])],
         dtype=numpy.float32 if 'align' in _fname else None, double=False,
         host_reads=0 if 'align' in _fname else 2)
case('roi_average_align_2d_adaptive', _roi_case('roi_average_align_2d'),
     [_u((2, 2, 6, 6)), _rois(_BOXES), _const([0, 1, 1])], covers=(),
     dtype=numpy.float32, double=False, host_reads=2)
case('roi_pooling_2d', lambda x, rois: F.roi_pooling_2d(x, rois.array.astype(x.dtype), 2, 2,
                                                         1.0),
     [_u((2, 2, 6, 6)), _rois([[0] + b for b in _BOXES[:2]] + [[1] + _BOXES[2]])],
     double=False, host_reads=2)


# options that take other code paths of functions already listed
case('softmax_cross_entropy_ignore', lambda x, t: F.softmax_cross_entropy(x, t),
     [_u((4, 3)), _labels((4,), 3, ignore=-1)], covers=('softmax_cross_entropy',),
     double=False)
case('softmax_cross_entropy_weighted_no_reduce', lambda x, t: F.softmax_cross_entropy(
    x, t, class_weight=_xp(x).asarray([0.5, 1.0, 2.0], x.dtype), reduce='no'),
     [_u((4, 3, 2)), _labels((4, 2), 3, ignore=-1)], covers=('softmax_cross_entropy',),
     double=False)
case('softmax_cross_entropy_double', lambda x, t: F.softmax_cross_entropy(
    x, t, enable_double_backprop=True), [_u((4, 3)), _labels((4,), 3, ignore=-1)],
     covers=('softmax_cross_entropy',))
case('sigmoid_cross_entropy_ignore', F.sigmoid_cross_entropy,
     [_u((4, 3)), _const([[0, 1, -1]] * 4)], covers=('sigmoid_cross_entropy',),
     double=False)
case('embed_id_ignore', lambda x, w: F.embed_id(x, w, ignore_label=-1),
     [_const([[1, -1], [3, 1]]), _u((4, 2))], covers=('embed_id',))
case('embed_id_repeated', F.embed_id, [_const([2, 0, 2, 2]), _u((4, 3))],
     covers=('embed_id',))
case('get_item_advanced', lambda x: x[[0, 2, 0], 1:], [_u((3, 4))], covers=('get_item',))
# a boolean mask: CuPy reads the mask's count back to size the result (the double does
# not count that read)
case('get_item_bool', lambda x: F.get_item(x, _xp(x).asarray([True, False, True])),
     [_u((3, 4))], covers=('get_item',), host_reads=1)
case('scatter_add_repeated', lambda a, b: F.scatter_add(a, ([0, 2, 0], slice(None)), b),
     [_u((3, 2)), _u((3, 2))], covers=('scatter_add',))
case('where_scalar_condition', lambda x, y: F.where(True, x, y), [_u(S), _u(S)],
     covers=('where',))
case('pad_reflect', lambda x: F.pad(x, ((0, 0), (2, 1)), 'reflect'), [_u((2, 4))],
     covers=('pad',))
case('resize_images_nearest', lambda x: F.resize_images(x, (5, 7), mode='nearest'),
     [_u((1, 2, 3, 4))], covers=('resize_images',), dtype=numpy.float32, double=False)
case('resize_images_down', lambda x: F.resize_images(x, (2, 3)),
     [_u((2, 1, 5, 7))], covers=('resize_images',), dtype=numpy.float32, double=False)
case('convolution_2d_stride_cover_all', lambda x, w: F.convolution_2d(
    x, w, stride=2, pad=1, cover_all=True), [_u((2, 3, 5, 5)), _u((4, 3, 3, 3))],
     covers=('convolution_2d',))
case('deconvolution_2d_outsize', lambda x, w, b: F.deconvolution_2d(
    x, w, b, stride=2, pad=1, outsize=(6, 6)), [_u((1, 3, 3, 3)), _u((3, 2, 3, 3)),
                                               _u((2,))], covers=('deconvolution_2d',))
case('average_pooling_2d_pad', lambda x: F.average_pooling_2d(x, 3, 2, 1),
     [_u((2, 2, 5, 5))], covers=('average_pooling_2d',))
case('max_pooling_2d_no_cover_all', lambda x: F.max_pooling_2d(x, 3, 2, 1, cover_all=False),
     [_u((2, 2, 5, 5))], covers=('max_pooling_2d',), double=False)
case('max_pooling_2d_nan', lambda x: F.max_pooling_2d(x * _xp(x.array).asarray(
    [[[[1, float('nan')], [1, 1]]]], x.dtype).repeat(2, 2).repeat(2, 3), 2),
     [_u((1, 1, 4, 4))], covers=('max_pooling_2d',), double=False)
case('discriminative_loss_l2', lambda x, t: F.discriminative_margin_based_clustering_loss(
    x, t, 0.5, 1.5, 2, norm=2), [_u((1, 2, 2, 2)), _const([[[0, 1], [1, 2]]])],
     covers=('discriminative_margin_based_clustering_loss',), double=False)
case('ctc_lengths', lambda x0, x1, x2, x3, t, il, ll: F.connectionist_temporal_classification(
    [x0, x1, x2, x3], t, 0, input_length=il, label_length=ll, reduce='no'),
     [_u((3, 4)), _u((3, 4)), _u((3, 4)), _u((3, 4)), _const([[1, 2, 3], [2, 2, 0], [3, 1, 0]]),
      _const([4, 3, 2]), _const([3, 2, 1])],
     covers=('connectionist_temporal_classification',), double=False)
case('lstm_shrinking_batch', F.lstm, [_u((3, 2)), _u((2, 8))], covers=('lstm',))
case('softmax_axis', lambda x: F.softmax(x, axis=2), [_u((2, 3, 4))], covers=('softmax',))
case('log_softmax_axis', lambda x: F.log_softmax(x, axis=0), [_u((2, 3))],
     covers=('log_softmax',))
case('matmul_trans', lambda a, b: F.matmul(a, b, transa=True, transb=True),
     [_u((3, 2)), _u((4, 3))], covers=('matmul',))
case('einsum_ellipsis', lambda a, b: F.einsum('...ij,...jk->...ik', a, b),
     [_u((2, 2, 3)), _u((2, 3, 2))], covers=('einsum',))
case('sum_axis_keepdims', lambda x: F.sum(x, axis=(0, 2), keepdims=True),
     [_u((2, 3, 4))], covers=('sum',))
case('max_axis', lambda x: F.max(x, axis=1), [_u((3, 4))], covers=('max',), double=False)
case('prod_axis', lambda x: F.prod(x, axis=0), [_u((3, 4))], covers=('prod',),
     double=False)
case('cumsum_axis', lambda x: F.cumsum(x, axis=1), [_u((3, 4))], covers=('cumsum',))
case('huber_loss_no_reduce', lambda x, t: F.huber_loss(x, t, 1.0, reduce='no'),
     [_u(S), _u(S)], covers=('huber_loss',), double=False)
# without label_num the output size is the largest label + 1: one read (as in Chainer)
case('classification_summary_label_num_read', F.classification_summary,
     [_u((6, 3)), _labels((6,), 3)], covers=('classification_summary',), grad=False,
     host_reads=1)
case('sparse_matmul_batched_dense_sparse', lambda a, d: F.sparse_matmul(
    a, _coo(d, [[0, 1, 2, -1], [2, 2, 0, 1]], [[1, 0, 1, -1], [0, 1, 1, 1]], (3, 2),
            'other'), transa=True), [_u((2, 3, 4)), _u((2, 4))], covers=('sparse_matmul',))
# CooMatrix(order=None) finds the order by comparing indices (as Chainer): 4 reads
case('to_coo_order_read', lambda d, b: F.sparse_matmul(
    utils.CooMatrix(d.array, _xp(b).asarray([0, 1, 2, 2, -1], 'i'),
                    _xp(b).asarray([1, 0, 2, 2, -1], 'i'), (3, 3)), b),
     [_u((5,)), _u((3, 2))], covers=('sparse_matmul',), host_reads=4)


# -------------------------------------------------------------- the runs

def _weights(y):
    """A fixed, non-uniform output gradient made with `y`'s array module."""
    xp = _xp(y.array)
    w = (xp.arange(y.size, dtype=numpy.float64) % 7) * 0.25 + 0.5
    return Variable(w.reshape(y.shape).astype(y.dtype))


def _flatten(out):
    if isinstance(out, (tuple, list)):
        return [o for item in out for o in _flatten(item)]
    return [out]


def _evaluate(c, arrays):
    """Forward, backward, double backward; every array the run produced, by kind."""
    inputs = [Variable(a) if a.dtype.kind == 'f' else a for a in arrays]
    floats = [v for v in inputs if isinstance(v, Variable)]
    with minichainer.using_config('train', True):
        outs = _flatten(c.fn(*inputs))
    result = {'out': [o.array if isinstance(o, Variable) else o for o in outs]}
    if not c.grad:
        return result
    ys = [o for o in outs if isinstance(o, Variable) and o.dtype.kind == 'f'
          and o.creator is not None]
    assert ys, 'the case gives no differentiable output'
    loss = sum(F.sum(y * _weights(y)) for y in ys)
    loss.backward(enable_double_backprop=c.double)
    result['grad'] = [v.grad for v in floats]
    if not c.double:
        return result
    grads = [v.grad_var for v in floats
             if v.grad_var is not None and v.grad_var.creator is not None]
    if grads:
        for v in floats:
            v.cleargrad()
        total = sum(F.sum(g * g) for g in grads)
        total.backward()
        result['grad2'] = [v.grad for v in floats]
    return result


def _make_arrays(c, dtype):
    rng = numpy.random.RandomState(7)
    return [m(dtype, rng) for m in c.makers]


def _host(x, device):
    return backend.CpuDevice().send(x) if x is not None and not isinstance(
        x, numpy.ndarray) else x


def _run_on_device(c, arrays, device):
    xp = device.xp
    on_device = [device.send(a) for a in arrays]
    numpy_rng = numpy.random.get_state()
    if c.host_reads:
        before = _host_transfers(device)
        result = _evaluate(c, on_device)
        if before is not None:
            reads = _host_transfers(device) - before
            assert reads <= c.host_reads, '{} reads from the device, {} expected'.format(
                reads, c.host_reads)
    else:
        with _no_host_transfer(device):
            result = _evaluate(c, on_device)
    for kind, values in result.items():
        for v in values:
            assert v is None or isinstance(v, xp.ndarray), \
                '{}: a {} left the device'.format(kind, type(v).__name__)
    # random draws came from the device's generator: NumPy's global one is untouched
    after = numpy.random.get_state()
    assert numpy_rng[0] == after[0] and numpy.array_equal(numpy_rng[1], after[1]) \
        and numpy_rng[2:] == after[2:], 'the run drew from numpy.random'
    return {kind: [_host(v, device) for v in values] for kind, values in result.items()}


def _double(device):
    """The CuPy test double's control module when `device` is the double's, else None."""
    import cupy_double
    return cupy_double if cupy_double.is_double(device.xp) else None


def _no_host_transfer(device):
    double = _double(device)
    if double is not None:
        return double.forbid_host_transfer()
    from minichainer.backends import cuda
    return cuda.cupyx.allow_synchronize(False)    # real CuPy: any synchronization raises


def _host_transfers(device):
    double = _double(device)
    return None if double is None else double.host_transfers()


def _tolerance(dtype):
    return (dict(rtol=1e-4, atol=1e-5) if numpy.dtype(dtype) == numpy.float32
            else dict(rtol=1e-6, atol=1e-9))


def _compare(name, ref, dev, dtype, random):
    assert ref.keys() == dev.keys(), (ref.keys(), dev.keys())
    for kind in ref:
        assert len(ref[kind]) == len(dev[kind])
        for i, (r, d) in enumerate(zip(ref[kind], dev[kind])):
            where = '{} {}[{}]'.format(name, kind, i)
            if r is None or d is None:
                assert r is None and d is None, where
                continue
            assert d.shape == r.shape and d.dtype == r.dtype, \
                '{}: {} {} on the device, {} {} on NumPy'.format(
                    where, d.shape, d.dtype, r.shape, r.dtype)
            if random:
                assert numpy.isfinite(d).all() if d.dtype.kind == 'f' else True, where
                continue
            if d.dtype.kind in 'fc':
                numpy.testing.assert_allclose(d, r, err_msg=where, equal_nan=True,
                                              **_tolerance(d.dtype))
            else:
                numpy.testing.assert_array_equal(d, r, err_msg=where)


# Functions that cannot run on CuPy arrays, with the reason (strict: they must fail).
XFAIL = {}
# Cases failing because of a bug of the test double itself (not of minichainer).
DOUBLE_BUGS = {
    'decorrelated_batch_normalization':
        "the double's linalg.eigh returns NumPy 2's EighResult of host arrays "
        '(real CuPy returns a tuple of device arrays)',
}


def _params():
    for name in sorted(CASES):
        marks = ()
        if name in XFAIL:
            marks = (pytest.mark.xfail(strict=True, reason=XFAIL[name]),)
        elif name in DOUBLE_BUGS:
            marks = (pytest.mark.xfail(strict=False, reason=DOUBLE_BUGS[name]),)
        dtype = CASES[name].dtype
        for d in (numpy.float64, numpy.float32):
            if dtype is None or dtype == d:
                yield pytest.param(name, d, id='{}-{}'.format(numpy.dtype(d).name, name),
                                   marks=marks)


@pytest.mark.filterwarnings('ignore:batch_matmul is deprecated:DeprecationWarning')
@pytest.mark.filterwarnings('ignore:fixed_batch_renormalization is deprecated')
@pytest.mark.parametrize('name, dtype', list(_params()))
def test_cupy_function(name, dtype, cupy_device):
    c = CASES[name]
    arrays = _make_arrays(c, dtype)
    with numpy.errstate(all='ignore'):
        ref = _evaluate(c, [a.copy() for a in arrays])
        dev = _run_on_device(c, arrays, cupy_device)
    ref = {kind: [None if v is None else numpy.asarray(v) for v in values]
           for kind, values in ref.items()}
    _compare(name, ref, dev, dtype, c.random)


# mixed16 training runs these in float16 on the GPU
FLOAT16 = ('linear', 'convolution_2d', 'deconvolution_2d', 'batch_normalization_4d',
           'layer_normalization', 'softmax_cross_entropy', 'relu', 'sigmoid', 'tanh',
           'max_pooling_2d', 'average_pooling_2d', 'embed_id', 'lstm', 'softmax',
           'log_softmax', 'sum', 'mean', 'matmul', 'mean_squared_error', 'accuracy')


@pytest.mark.parametrize('name', FLOAT16)
def test_cupy_function_float16(name, cupy_device):
    c = CASES[name]
    arrays = _make_arrays(c, numpy.float16)
    with numpy.errstate(all='ignore'):
        ref = _evaluate(c, [a.copy() for a in arrays])
        dev = _run_on_device(c, arrays, cupy_device)
    for kind in ref:
        for r, d in zip(ref[kind], dev[kind]):
            if r is None:
                assert d is None
                continue
            r = numpy.asarray(r)
            assert d.dtype == r.dtype and d.shape == r.shape, (kind, d.dtype, r.dtype)
            if d.dtype.kind == 'f':
                numpy.testing.assert_allclose(d.astype(numpy.float32),
                                              r.astype(numpy.float32), rtol=2e-2,
                                              atol=2e-3, err_msg=kind)
            else:
                numpy.testing.assert_array_equal(d, r)


CHUNKED = ('convolution_2d', 'convolution_2d_stride_cover_all', 'convolution_nd',
           'deconvolution_2d', 'deconvolution_2d_outsize', 'deconvolution_nd',
           'convolution_3d', 'roi_average_align_2d', 'roi_max_align_2d',
           'roi_average_pooling_2d', 'roi_max_pooling_2d', 'roi_pooling_2d')


@pytest.mark.parametrize('name', CHUNKED)
def test_cupy_function_chunked(name, cupy_device, monkeypatch):
    """The paths that split large arrays into chunks, forced with tiny chunk sizes."""
    from minichainer.functions.connection import convolution_engine
    from minichainer.functions.pooling import _roi
    for attr in ('COL_CACHE_MAX_BYTES', 'GCOL_CHUNK_BYTES', 'COL_CHUNK_BYTES',
                 'DEVICE_COL_CHUNK_BYTES'):
        monkeypatch.setattr(convolution_engine, attr, 1)
    monkeypatch.setattr(_roi, '_CHUNK_ELEMENTS', 1)
    c = CASES[name]
    dtype = c.dtype or numpy.float64
    arrays = _make_arrays(c, dtype)
    ref = _evaluate(c, [a.copy() for a in arrays])
    dev = _run_on_device(c, arrays, cupy_device)
    ref = {kind: [None if v is None else numpy.asarray(v) for v in values]
           for kind, values in ref.items()}
    _compare(name, ref, dev, dtype, False)


def _public_functions():
    return sorted(n for n in dir(F) if not n.startswith('_')
                  and inspect.isfunction(getattr(F, n)))


def test_cupy_table_covers_every_function():
    covered = {f for names in COVERS.values() for f in names}
    missing = [n for n in _public_functions() if n not in covered]
    assert not missing, 'functions without a CuPy case: {}'.format(missing)
    unknown = sorted(covered - set(_public_functions()))
    assert not unknown, unknown


def test_cupy_copy_to_host(cupy_device):
    """`F.copy` to the CPU and back: the one function whose job is a host copy."""
    x = Variable(cupy_device.send(numpy.arange(6, dtype=numpy.float32).reshape(2, 3)))
    y = F.copy(x, -1)
    assert isinstance(y.array, numpy.ndarray)
    numpy.testing.assert_array_equal(y.array, numpy.arange(6).reshape(2, 3))
    z = F.copy(y * 2, cupy_device)
    assert isinstance(z.array, cupy_device.xp.ndarray)
    F.sum(z).backward()
    assert isinstance(x.grad, cupy_device.xp.ndarray)
    numpy.testing.assert_array_equal(backend.CpuDevice().send(x.grad), numpy.full((2, 3), 2))


def _device_rng(device):
    return device.xp.random


def test_cupy_dropout_draws_on_the_device(cupy_device):
    """Dropout's mask comes from the device's generator (seeded, reproducible), is
    applied to the input and to the gradient, and NumPy's global generator is unused."""
    x = cupy_device.send(numpy.linspace(-1, 1, 40).reshape(4, 10).astype(numpy.float32))
    masks = []
    for _ in range(2):
        _device_rng(cupy_device).seed(5)
        v = Variable(x)
        with minichainer.using_config('train', True):
            y, mask = F.dropout(v, 0.5, return_mask=True)
        F.sum(y).backward()
        masks.append(backend.CpuDevice().send(mask))
        numpy.testing.assert_array_equal(backend.CpuDevice().send(y.array),
                                         backend.CpuDevice().send(x) * masks[-1])
        numpy.testing.assert_array_equal(backend.CpuDevice().send(v.grad), masks[-1])
    numpy.testing.assert_array_equal(masks[0], masks[1])
    assert set(numpy.unique(masks[0])) <= {0, 2}
    assert 0 < numpy.count_nonzero(masks[0]) < masks[0].size


@pytest.mark.parametrize('debug', [False, True], ids=['plain', 'debug'])
def test_cupy_label_checks_as_chainer(cupy_device, debug):
    """Label checks on a GPU only in debug mode (they read the labels back), as in
    Chainer; on NumPy arrays minichainer always checks."""
    x = numpy.zeros((2, 3), numpy.float32)
    t = numpy.array([0, 5], numpy.int32)
    with pytest.raises(ValueError):
        F.softmax_cross_entropy(x, t)
    xd, td = cupy_device.send(x), cupy_device.send(t)
    with minichainer.using_config('debug', debug):
        if debug:
            for fn in (F.softmax_cross_entropy, F.select_item, F.accuracy):
                with pytest.raises(ValueError):
                    fn(xd, td)
            with pytest.raises(ValueError):
                F.embed_id(td, xd)
        else:   # a check would read the labels back, which raises here
            good = cupy_device.send(numpy.array([0, 2], numpy.int32))
            with _no_host_transfer(cupy_device):
                F.softmax_cross_entropy(xd, good)
                F.select_item(xd, good)
                F.accuracy(xd, good)
                F.embed_id(good, cupy_device.send(numpy.zeros((3, 2), numpy.float32)))


def test_cupy_scatter_helpers(cupy_device):
    """utils.scatter on device arrays: repeated indices add up, as numpy.add.at."""
    from minichainer.utils import scatter
    rng = numpy.random.RandomState(0)
    ids = numpy.array([3, 0, 3, 1, 3], numpy.int32)
    rows = rng.rand(5, 4)
    values = rng.rand(7, 2)
    counts = numpy.array([2, 0, 4, 1])
    ref = numpy.zeros((5, 4))
    scatter.add_rows(ref, ids, rows)
    ref_sums = scatter.segment_sums(values, counts)
    ref_at = numpy.zeros((4, 4))
    scatter.scatter_add(ref_at, (ids[:4], slice(1, 3)), rows[:4, :2])
    dev = cupy_device.send(numpy.zeros((5, 4)))
    dev_at = cupy_device.send(numpy.zeros((4, 4)))
    with _no_host_transfer(cupy_device):
        scatter.add_rows(dev, cupy_device.send(ids), cupy_device.send(rows))
        sums = scatter.segment_sums(cupy_device.send(values), cupy_device.send(counts))
        scatter.scatter_add(dev_at, (cupy_device.send(ids[:4]), slice(1, 3)),
                            cupy_device.send(rows[:4, :2]))
    host = backend.CpuDevice().send
    numpy.testing.assert_allclose(host(dev), ref, rtol=1e-12)
    numpy.testing.assert_allclose(host(sums), ref_sums, rtol=1e-12)
    numpy.testing.assert_allclose(host(dev_at), ref_at, rtol=1e-12)


def test_cupy_walker_alias_samples_on_the_device(cupy_device):
    sampler = utils.WalkerAlias([0.1, 0.0, 0.6, 0.3])
    assert not sampler.use_gpu
    sampler.to_device(cupy_device)
    assert sampler.use_gpu and sampler.device == cupy_device
    with _no_host_transfer(cupy_device):
        s = sampler.sample((1000,))
    assert isinstance(s, cupy_device.xp.ndarray) and s.dtype == numpy.int32
    counts = numpy.bincount(backend.CpuDevice().send(s), minlength=4)
    assert counts[1] == 0 and counts[2] > counts[3] > counts[0] > 0
    sampler.to_cpu()
    assert isinstance(sampler.sample((3,)), numpy.ndarray)


def test_cupy_conv_utils(cupy_device):
    """utils.conv / utils.conv_nd patch helpers (Chainer's *_gpu names too) on the device."""
    from minichainer.utils import conv
    from minichainer.utils import conv_nd
    img = numpy.random.RandomState(1).rand(2, 3, 5, 4)
    col = conv.im2col_cpu(img, 3, 2, 2, 1, 1, 0)
    col_nd = conv_nd.im2col_nd_cpu(img, (3, 2), (2, 1), (1, 0))
    d_img = cupy_device.send(img)
    with _no_host_transfer(cupy_device):
        outs = [conv.im2col_gpu(d_img, 3, 2, 2, 1, 1, 0), conv.im2col(d_img, 3, 2, 2, 1, 1, 0),
                conv_nd.im2col_nd_gpu(d_img, (3, 2), (2, 1), (1, 0)),
                conv_nd.im2col_nd(d_img, (3, 2), (2, 1), (1, 0))]
        backs = [conv.col2im_gpu(outs[0], 2, 1, 1, 0, 5, 4),
                 conv_nd.col2im_nd_gpu(outs[2], (2, 1), (1, 0), (5, 4))]
    host = backend.CpuDevice().send
    for out, ref in zip(outs, (col, col, col_nd, col_nd)):
        assert isinstance(out, cupy_device.xp.ndarray)
        numpy.testing.assert_array_equal(host(out), ref)
    numpy.testing.assert_allclose(host(backs[0]), conv.col2im_cpu(col, 2, 1, 1, 0, 5, 4))
    numpy.testing.assert_allclose(host(backs[1]),
                                  conv_nd.col2im_nd_cpu(col_nd, (2, 1), (1, 0), (5, 4)))
