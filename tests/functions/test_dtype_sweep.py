"""Output and gradient dtypes equal the input dtype, on NumPy 1.26 as on NumPy 2.

NumPy 1.26 promotes by value: a 0-d array or NumPy scalar combined with a Python scalar
gives float64, and a float16 array times a large Python float gives float32. Chainer's
dtypes are the spec on every NumPy version, so each function is swept over float16/32/64,
with 0-d inputs where the function takes them, through forward, backward and double
backward.
"""
import numpy
import pytest

import minichainer
import minichainer.functions as F
from minichainer import Variable

DTYPES = (numpy.float16, numpy.float32, numpy.float64)


def _u(shape, lo=-0.9, hi=0.9):
    def make(dtype, rng):
        return rng.uniform(lo, hi, shape).astype(dtype)
    return make


def _pos(shape):
    return _u(shape, 0.3, 0.8)


def _int(shape, hi):
    def make(dtype, rng):
        return rng.randint(0, hi, shape).astype(numpy.int32)
    return make


def _spd(n):
    def make(dtype, rng):
        a = rng.uniform(-1, 1, (n, n))
        return (a @ a.T + n * numpy.eye(n)).astype(dtype)
    return make


def _well_conditioned(shape):
    def make(dtype, rng):
        a = rng.uniform(-0.3, 0.3, shape) + numpy.eye(shape[-1])
        return a.astype(dtype)
    return make


S = (3, 2)      # a small array
Z = ()          # a 0-d array: NumPy 1.26 treats it as a scalar in arithmetic

# name -> (function, input makers, set of indexes of differentiable inputs or None for all
# float inputs, options)
CASES = {}


def case(name, fn, *makers, double=True, no_f16=False):
    CASES[name] = (fn, makers, double, no_f16)


for shape, tag in ((S, ''), (Z, '_0d')):
    for fname in ('sin', 'cos', 'tan', 'arctan', 'sinh', 'cosh', 'tanh', 'exp',
                  'expm1', 'square', 'erf', 'erfc', 'erfcx', 'ndtr', 'log_ndtr', 'sigmoid',
                  'relu', 'elu', 'selu', 'softplus', 'hard_sigmoid', 'leaky_relu', 'swish',
                  'identity', 'absolute', 'sum', 'mean', 'logsumexp', 'cumsum', 'prod',
                  'cumprod', 'max', 'min', 'sign', 'floor', 'ceil', 'fix', 'copy',
                  'clipped_relu', 'relu6', 'flatten', 'expand_dims_0', 'squeeze', 'tile2',
                  'repeat2', 'broadcast_to', 'reshape', 'flip0', 'fliplr_', 'flipud_',
                  'transpose', 'atleast_pad', 'neg', 'pow2', 'rpow2', 'add1', 'radd1',
                  'sub1', 'rsub1', 'mul3', 'rmul3', 'div3', 'rdiv3', 'mul_big', 'div_big',
                  'pow_half', 'abs_op', 'rrelu', 'lgamma', 'digamma', 'erfinv',
                  'ndtri', 'erfcinv', 'polygamma1', 'zeta2', 'log', 'log1p', 'log2',
                  'log10', 'sqrt', 'rsqrt', 'arcsin', 'arccos', 'arctanh', 'clip'):
        CASES[fname + tag] = (fname, shape)


def _unary(name):
    simple = {
        'expand_dims_0': lambda x: F.expand_dims(x, 0),
        'tile2': lambda x: F.tile(x, 2),
        'repeat2': lambda x: F.repeat(x, 2),
        'broadcast_to': lambda x: F.broadcast_to(x, (2,) + x.shape),
        'reshape': lambda x: F.reshape(x, (-1,)),
        'flip0': lambda x: F.flip(x, 0) if x.ndim else x * 1,
        'fliplr_': lambda x: F.fliplr(x) if x.ndim >= 2 else x * 1,
        'flipud_': lambda x: F.flipud(x) if x.ndim else x * 1,
        'atleast_pad': lambda x: F.pad(x, 1, 'constant') if x.ndim else x * 1,
        'neg': lambda x: -x,
        'pow2': lambda x: x ** 2,
        'rpow2': lambda x: 2 ** x,
        'add1': lambda x: x + 1,
        'radd1': lambda x: 1 + x,
        'sub1': lambda x: x - 1,
        'rsub1': lambda x: 1 - x,
        'mul3': lambda x: x * 3,
        'rmul3': lambda x: 3 * x,
        'div3': lambda x: x / 3,
        'rdiv3': lambda x: 3 / x,
        'mul_big': lambda x: x * 1000.0,
        'div_big': lambda x: x / 1000.0,
        'pow_half': lambda x: x ** 0.5,
        'abs_op': lambda x: abs(x),
        'polygamma1': lambda x: F.polygamma(numpy.array(1, numpy.int32), x),
        'zeta2': lambda x: F.zeta(x + 2, numpy.full(x.shape, 1.5, x.dtype)),
        'copy': lambda x: F.copy(x, -1),
        'clip': lambda x: F.clip(x, 0.2, 0.7),
        'clipped_relu': lambda x: F.clipped_relu(x, 0.5),
        'swish': lambda x: F.swish(x, Variable(numpy.full(x.shape[1:2], 0.7, x.dtype)))
        if x.ndim else F.swish(F.reshape(x, (1, 1)), Variable(numpy.full((1,), 0.7, x.dtype))),
        'rrelu': lambda x: F.rrelu(x),
    }
    if name in simple:
        return simple[name]
    return getattr(F, name)


POSITIVE = {'log', 'log1p', 'log2', 'log10', 'sqrt', 'rsqrt', 'arcsin', 'arccos', 'arctanh',
            'lgamma', 'digamma', 'erfinv', 'ndtri', 'erfcinv', 'polygamma1', 'zeta2',
            'rdiv3', 'pow_half', 'rpow2', 'clip'}
NOT_DIFFERENTIABLE = {'sign', 'floor', 'ceil', 'fix'}
NO_DOUBLE = {'erfcx', 'log_ndtr', 'lgamma', 'digamma', 'polygamma1', 'zeta2', 'erfinv',
             'ndtri', 'erfcinv', 'rrelu', 'clipped_relu', 'relu6', 'cumprod', 'prod', 'max',
             'min', 'hard_sigmoid', 'clip', 'logsumexp', 'erfc'}


def _seed():
    return numpy.random.RandomState(3)


def _check_dtypes(fn, arrays, dtype, double=True, differentiable=True):
    # only dtypes are checked: float16 overflow in the squared double-backward sums is fine
    with numpy.errstate(all='ignore'):
        _check_dtypes_impl(fn, arrays, dtype, double, differentiable)


def _check_dtypes_impl(fn, arrays, dtype, double, differentiable):
    inputs = [Variable(a) if a.dtype.kind == 'f' else a for a in arrays]
    float_inputs = [v for v in inputs if isinstance(v, Variable)]
    out = fn(*inputs)
    outs = out if isinstance(out, (tuple, list)) else (out,)
    for o in outs:
        if o.dtype.kind == 'f':
            assert o.dtype == dtype, 'forward gave {} for {} input'.format(o.dtype, dtype)
    if not differentiable:
        return
    y = next(o for o in outs if o.dtype.kind == 'f')
    # first the arrays-only backward (the fast path), then the one that builds a graph
    for build_graph in ((False, True) if double else (False,)):
        for v in float_inputs:
            v.cleargrad()
        y.grad = numpy.ones_like(y.array)
        y.backward(enable_double_backprop=build_graph)
        for v in float_inputs:
            if v.grad is not None:
                assert v.grad.dtype == dtype, 'backward (double={}) gave {} for {} input' \
                    .format(build_graph, v.grad.dtype, dtype)
    if not double:
        return
    grads = [v.grad_var for v in float_inputs if v.grad_var is not None]
    if not grads or not any(g.creator is not None for g in grads):
        return
    for v in float_inputs:
        v.cleargrad()
    total = sum(F.sum(g * g) for g in grads if g.creator is not None)
    total.backward()
    for v in float_inputs:
        if v.grad is not None:
            assert v.grad.dtype == dtype, \
                'double backward gave {} for {} input'.format(v.grad.dtype, dtype)


UNARY = sorted(k for k, v in CASES.items() if isinstance(v[0], str))


@pytest.mark.parametrize('dtype', DTYPES, ids=lambda d: numpy.dtype(d).name)
@pytest.mark.parametrize('name', UNARY)
def test_unary_dtype(name, dtype):
    fname, shape = CASES[name]
    rng = _seed()
    maker = _pos(shape) if fname in POSITIVE else _u(shape)
    x = maker(dtype, rng)
    if fname in ('max', 'min', 'cumprod', 'prod', 'logsumexp', 'sum', 'mean', 'cumsum') \
            and shape == ():
        if fname in ('logsumexp', 'cumprod', 'cumsum'):
            pytest.skip('needs an axis')
    with minichainer.using_config('train', True):
        _check_dtypes(_unary(fname), [x], dtype, double=fname not in NO_DOUBLE,
                      differentiable=fname not in NOT_DIFFERENTIABLE)


def _lstm(c, x):
    return F.lstm(c, x)


MULTI = {
    # losses (0-d outputs: their backward combines a 0-d gy with scalars)
    'mean_squared_error': (F.mean_squared_error, [_u(S), _u(S)]),
    'mean_absolute_error': (F.mean_absolute_error, [_u(S), _u(S)]),
    'squared_error': (F.squared_error, [_u(S), _u(S)]),
    'absolute_error': (F.absolute_error, [_u(S), _u(S)]),
    'huber_loss': (lambda x, t: F.huber_loss(x, t, 0.5), [_u(S), _u(S)]),
    'huber_loss_sum': (lambda x, t: F.huber_loss(x, t, 0.5, reduce='sum_along_second_axis'),
                       [_u(S), _u(S)]),
    'contrastive': (lambda a, b, y: F.contrastive(a, b, y, margin=1.5),
                    [_u((4, 3)), _u((4, 3)), lambda d, r: numpy.array([0, 1, 0, 1], 'i')]),
    'contrastive_no_reduce': (
        lambda a, b, y: F.contrastive(a, b, y, margin=1.5, reduce='no'),
        [_u((4, 3)), _u((4, 3)), lambda d, r: numpy.array([0, 1, 0, 1], 'i')]),
    'triplet': (lambda a, p, n: F.triplet(a, p, n, margin=2.0),
                [_u((4, 3)), _u((4, 3)), _u((4, 3))]),
    'triplet_no_reduce': (lambda a, p, n: F.triplet(a, p, n, margin=2.0, reduce='no'),
                          [_u((4, 3)), _u((4, 3)), _u((4, 3))]),
    'hinge_l1': (lambda x, t: F.hinge(x, t, 'L1'), [_u((4, 3)), _int((4,), 3)]),
    'hinge_l2': (lambda x, t: F.hinge(x, t, 'L2'), [_u((4, 3)), _int((4,), 3)]),
    'hinge_no_reduce': (lambda x, t: F.hinge(x, t, 'L2', reduce='no'),
                        [_u((4, 3)), _int((4,), 3)]),
    'sigmoid_cross_entropy': (F.sigmoid_cross_entropy, [_u((4, 3)), _int((4, 3), 2)]),
    'sigmoid_cross_entropy_no_norm': (
        lambda x, t: F.sigmoid_cross_entropy(x, t, normalize=False),
        [_u((4, 3)), _int((4, 3), 2)]),
    'softmax_cross_entropy': (F.softmax_cross_entropy, [_u((4, 3)), _int((4,), 3)]),
    'softmax_cross_entropy_no_norm': (
        lambda x, t: F.softmax_cross_entropy(x, t, normalize=False),
        [_u((4, 3)), _int((4,), 3)]),
    'softmax_cross_entropy_soft': (
        lambda x, t: F.softmax_cross_entropy(x, F.softmax(t).array),
        [_u((4, 3)), _u((4, 3))]),
    'gaussian_kl_divergence': (F.gaussian_kl_divergence, [_u(S), _u(S)]),
    'gaussian_kl_divergence_mean': (lambda m, v: F.gaussian_kl_divergence(m, v, 'mean'),
                                    [_u(S), _u(S)]),
    'gaussian_nll': (F.gaussian_nll, [_u(S), _u(S), _u(S)]),
    'gaussian_nll_mean': (lambda x, m, v: F.gaussian_nll(x, m, v, 'mean'),
                          [_u(S), _u(S), _u(S)]),
    'bernoulli_nll': (F.bernoulli_nll, [_pos(S), _u(S)]),
    'bernoulli_nll_mean': (lambda x, y: F.bernoulli_nll(x, y, 'mean'), [_pos(S), _u(S)]),
    'cross_covariance': (F.cross_covariance, [_u((4, 3)), _u((4, 2))]),
    'cross_covariance_no_reduce': (lambda a, b: F.cross_covariance(a, b, reduce='no'),
                                   [_u((4, 3)), _u((4, 2))]),
    'decov': (F.decov, [_u((4, 3))]),
    'decov_no_reduce': (lambda h: F.decov(h, reduce='no'), [_u((4, 3))]),
    'ctc': (lambda x0, x1, x2, t: F.connectionist_temporal_classification(
        [x0, x1, x2], t, 0), [_u((2, 3)), _u((2, 3)), _u((2, 3)), lambda d, r: numpy.array(
            [[1], [2]], 'i')]),
    'crf1d': (lambda c, x0, x1, t0, t1: F.crf1d(c, [x0, x1], [t0, t1]),
              [_u((3, 3)), _u((2, 3)), _u((2, 3)), _int((2,), 3), _int((2,), 3)]),
    'discriminative_loss': (
        lambda x, t: F.discriminative_margin_based_clustering_loss(x, t, 0.5, 1.5, 2)[0],
        [_u((1, 2, 2, 2)), lambda d, r: numpy.array([[[0, 1], [1, 0]]], 'i')]),
    # elementwise binary / n-ary
    'squared_difference': (F.squared_difference, [_u(S), _u(S)]),
    'maximum': (F.maximum, [_u(S), _u(S)]),
    'minimum': (F.minimum, [_u(S), _u(S)]),
    'maximum_0d': (F.maximum, [_u(Z), _u(Z)]),
    'minimum_0d': (F.minimum, [_u(Z), _u(Z)]),
    'squared_difference_0d': (F.squared_difference, [_u(Z), _u(Z)]),
    'fmod_0d': (F.fmod, [_u(Z), _pos(Z)]),
    'fmod': (F.fmod, [_u(S), _pos(S)]),
    'arctan2': (F.arctan2, [_u(S), _pos(S)]),
    'arctan2_0d': (F.arctan2, [_u(Z), _pos(Z)]),
    'linear_interpolate': (F.linear_interpolate, [_pos(S), _u(S), _u(S)]),
    'linear_interpolate_0d': (F.linear_interpolate, [_pos(Z), _u(Z), _u(Z)]),
    'add_var': (lambda a, b: a + b, [_u(Z), _u(Z)]),
    'mul_var': (lambda a, b: a * b, [_u(Z), _u(Z)]),
    'div_var': (lambda a, b: a / b, [_u(Z), _pos(Z)]),
    'pow_var': (lambda a, b: a ** b, [_pos(Z), _u(Z)]),
    'add_n': (lambda a, b, c: F.add(a, b, c), [_u(Z), _u(Z), _u(Z)]),
    'bias': (F.bias, [_u((2, 3)), _u((3,))]),
    'scale': (F.scale, [_u((2, 3)), _u((3,))]),
    'matmul': (F.matmul, [_u((2, 3)), _u((3, 2))]),
    'batch_matmul': (F.batch_matmul, [_u((2, 2, 3)), _u((2, 3, 2))]),
    'tensordot': (lambda a, b: F.tensordot(a, b, 1), [_u((2, 3)), _u((3, 2))]),
    'batch_l2_norm_squared': (F.batch_l2_norm_squared, [_u((3, 2))]),
    'det': (F.det, [_well_conditioned((3, 3))]),
    'batch_det': (F.batch_det, [_well_conditioned((2, 3, 3))]),
    'inv': (F.inv, [_well_conditioned((3, 3))]),
    'batch_inv': (F.batch_inv, [_well_conditioned((2, 3, 3))]),
    'cholesky': (F.cholesky, [_spd(3)]),
    'average_weighted': (lambda x, w: F.average(x, axis=1, weights=w),
                         [_u((2, 3)), _pos((3,))]),
    'average_0d': (F.average, [_u(Z)]),
    'logsumexp_axis': (lambda x: F.logsumexp(x, axis=1), [_u(S)]),
    'normalize': (F.normalize, [_u((2, 3))]),
    'normalize_small': (lambda x: F.normalize(x * 1e-3), [_u((2, 3))]),
    'local_response_normalization': (F.local_response_normalization, [_u((1, 3, 2, 2))]),
    # array
    "concat": (lambda a, b: F.concat([a, b]), [_u(S), _u(S)]),
    'stack': (lambda a, b: F.stack([a, b]), [_u(S), _u(S)]),
    'hstack': (lambda a, b: F.hstack([a, b]), [_u(S), _u(S)]),
    'vstack': (lambda a, b: F.vstack([a, b]), [_u(S), _u(S)]),
    'dstack': (lambda a, b: F.dstack([a, b]), [_u(S), _u(S)]),
    'split_axis': (lambda x: F.split_axis(x, 2, 1), [_u((3, 4))]),
    'separate': (lambda x: F.separate(x, 1), [_u((3, 4))]),
    'where': (lambda x, y: F.where(x.array > 0, x, y), [_u(S), _u(S)]),
    'where_0d': (lambda x, y: F.where(numpy.array(True), x, y), [_u(Z), _u(Z)]),
    'get_item': (lambda x: x[1:, ::-1], [_u((3, 4))]),
    'get_item_0d': (lambda x: x[()], [_u(Z)]),
    'select_item': (F.select_item, [_u((3, 4)), _int((3,), 4)]),
    'scatter_add': (lambda a, b: F.scatter_add(a, [0, 2], b), [_u((3, 2)), _u((2, 2))]),
    'pad_edge': (lambda x: F.pad(x, 1, 'edge'), [_u((2, 2))]),
    'resize_images': (lambda x: F.resize_images(x, (3, 5)), [_u((1, 2, 2, 3))]),
    'resize_images_align': (lambda x: F.resize_images(x, (3, 5), align_corners=False),
                            [_u((1, 2, 2, 3))]),
    'spatial_transformer_grid': (lambda t: F.spatial_transformer_grid(t, (3, 4)),
                                 [_u((2, 2, 3))]),
    'spatial_transformer_sampler': (F.spatial_transformer_sampler,
                                    [_u((1, 2, 3, 4)), _u((1, 2, 2, 3))]),
    'im2col': (lambda x: F.im2col(x, 2), [_u((1, 2, 3, 3))]),
    'depth2space': (lambda x: F.depth2space(x, 2), [_u((1, 4, 2, 2))]),
    'space2depth': (lambda x: F.space2depth(x, 2), [_u((1, 1, 4, 4))]),
    'diagonal': (F.diagonal, [_u((3, 3))]),
    'permutate': (lambda x: F.permutate(x, numpy.array([2, 0, 1], 'i')), [_u((3, 2))]),
    'swapaxes': (lambda x: F.swapaxes(x, 0, 1), [_u(S)]),
    'rollaxis': (lambda x: F.rollaxis(x, 1), [_u(S)]),
    'moveaxis': (lambda x: F.moveaxis(x, 0, 1), [_u(S)]),
    'transpose_sequence': (lambda a, b: F.transpose_sequence([a, b])[0],
                           [_u((3, 2)), _u((3, 2))]),
    'broadcast': (lambda a, b: F.broadcast(a, b)[0], [_u((3, 1)), _u((1, 2))]),
    'sum_to': (lambda x: F.sum_to(x, (1, 2)), [_u(S)]),
    # activations with parameters
    'prelu': (F.prelu, [_u((2, 3)), _u((3,))]),
    'maxout': (lambda x: F.maxout(x, 2), [_u((2, 4))]),
    'crelu': (F.crelu, [_u((2, 3))]),
    'softplus_beta': (lambda x: F.softplus(x, 2.0), [_u(S)]),
    'softplus_beta_0d': (lambda x: F.softplus(x, 2.0), [_u(Z)]),
    'elu_alpha_0d': (lambda x: F.elu(x, 0.5), [_u(Z)]),
    'leaky_relu_0d': (lambda x: F.leaky_relu(x, 0.3), [_u(Z)]),
    'selu_0d': (F.selu, [_u(Z)]),
    'hard_sigmoid_0d': (F.hard_sigmoid, [_u(Z)]),
    'lstm': (_lstm, [_u((2, 3)), _u((2, 12))]),
    'slstm': (F.slstm, [_u((2, 3)), _u((2, 3)), _u((2, 12)), _u((2, 12))]),
    'log_softmax': (F.log_softmax, [_u((2, 3))]),
    'softmax': (F.softmax, [_u((2, 3))]),
    'tree_lstm': (F.tree_lstm, [_u((2, 3)), _u((2, 3)), _u((2, 15))]),
    # noise (train mode)
    'dropout': (lambda x: F.dropout(x, 0.3), [_u(S)]),
    'dropout_0d': (lambda x: F.dropout(x, 0.3), [_u(Z)]),
    'gaussian': (F.gaussian, [_u(S), _u(S)]),
    'gumbel_softmax': (lambda x: F.gumbel_softmax(x, 0.5), [_pos((2, 3))]),
    'simplified_dropconnect': (F.simplified_dropconnect, [_u((2, 3)), _u((4, 3)), _u((4,))]),
    'zoneout': (lambda h, x: F.zoneout(h, x, 0.4), [_u(S), _u(S)]),
    # others' areas, swept so that a regression anywhere shows
    'linear': (F.linear, [_u((2, 3)), _u((4, 3)), _u((4,))]),
    'convolution_2d': (F.convolution_2d, [_u((1, 2, 3, 3)), _u((2, 2, 2, 2)), _u((2,))]),
    'deconvolution_2d': (F.deconvolution_2d, [_u((1, 2, 2, 2)), _u((2, 2, 2, 2))]),
    'average_pooling_2d': (lambda x: F.average_pooling_2d(x, 2), [_u((1, 1, 4, 4))]),
    'max_pooling_2d': (lambda x: F.max_pooling_2d(x, 2), [_u((1, 1, 4, 4))]),
    'batch_normalization': (F.batch_normalization, [_u((3, 2)), _pos((2,)), _u((2,))]),
    'layer_normalization': (F.layer_normalization, [_u((3, 4)), _pos((4,)), _u((4,))]),
    'group_normalization': (lambda x, g, b: F.group_normalization(x, 2, g, b),
                            [_u((2, 4, 2)), _pos((4,)), _u((4,))]),
    'embed_id': (lambda x, w: F.embed_id(x, w), [_int((3,), 4), _u((4, 2))]),
}

NO_DOUBLE_MULTI = {'ctc', 'crf1d', 'discriminative_loss', 'det', 'batch_det', 'inv',
                   'batch_inv', 'cholesky', 'spatial_transformer_sampler', 'maxout',
                   'local_response_normalization', 'hinge_l1', 'hinge_l2',
                   'hinge_no_reduce', 'contrastive', 'contrastive_no_reduce', 'triplet',
                   'triplet_no_reduce', 'huber_loss', 'huber_loss_sum', 'max_pooling_2d',
                   'sigmoid_cross_entropy', 'sigmoid_cross_entropy_no_norm',
                   'resize_images', 'resize_images_align', 'tree_lstm', 'slstm', 'fmod_0d',
                   'mean_absolute_error', 'absolute_error', 'im2col', 'fmod',
                   'softmax_cross_entropy_soft', 'gumbel_softmax', 'softmax_cross_entropy',
                   'softmax_cross_entropy_no_norm'}
FLOAT32_ONLY = {'resize_images', 'resize_images_align'}   # as Chainer's type check


@pytest.mark.filterwarnings('ignore:batch_matmul is deprecated:DeprecationWarning')
@pytest.mark.parametrize('dtype', DTYPES, ids=lambda d: numpy.dtype(d).name)
@pytest.mark.parametrize('name', sorted(MULTI))
def test_function_dtype(name, dtype):
    fn, makers = MULTI[name]
    if name in FLOAT32_ONLY and dtype != numpy.float32:
        pytest.skip('float32 only, as in Chainer')
    rng = _seed()
    arrays = [m(dtype, rng) for m in makers]
    with minichainer.using_config('train', True):
        _check_dtypes(fn, arrays, dtype, double=name not in NO_DOUBLE_MULTI)


# The cases reported against NumPy 1.26 (issue 14), each named.

def test_sum_divided_by_python_int_keeps_float32():
    v = Variable(numpy.arange(3, dtype=numpy.float32))
    y = F.sum(v) / 3
    assert y.dtype == numpy.float32
    assert y.array == numpy.float32(1)
    y.backward()
    assert v.grad.dtype == numpy.float32
    numpy.testing.assert_array_equal(v.grad, numpy.full(3, 1 / 3, numpy.float32))


@pytest.mark.parametrize('loss', [
    lambda a, b, c, t: F.contrastive(a, b, t),
    lambda a, b, c, t: F.triplet(a, b, c),
    lambda a, b, c, t: F.hinge(a, t),
])
def test_float16_loss_gradients_stay_float16(loss):
    rng = numpy.random.RandomState(0)
    a, b, c = (Variable(rng.uniform(-1, 1, (4, 3)).astype(numpy.float16)) for _ in range(3))
    t = numpy.array([0, 1, 1, 0], numpy.int32)
    y = loss(a, b, c, t)
    assert y.dtype == numpy.float16
    y.backward()
    for v in (a, b, c):
        assert v.grad is None or v.grad.dtype == numpy.float16


@pytest.mark.parametrize('shape', [(), (2, 3)])
def test_float16_sqrt_and_normalize(shape):
    x = Variable(numpy.full(shape, 0.5, numpy.float16))
    y = F.sqrt(x)
    y.grad = numpy.ones_like(y.array)
    y.backward()
    assert y.dtype == x.grad.dtype == numpy.float16
    if shape:
        x.cleargrad()
        z = F.normalize(x)
        z.grad = numpy.ones_like(z.array)
        z.backward()
        assert z.dtype == x.grad.dtype == numpy.float16
