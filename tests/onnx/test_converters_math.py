"""Round trips of the math converters through ONNX Runtime.

Each case exports a one-function model at every opset from the oldest to the newest,
checks it with `onnx.checker.check_model(full_check=True)` and compares ONNX Runtime's
outputs with minichainer's forward to float32 tolerance (rtol 1e-4, atol 1e-5; a case
that needs more says why).
"""
import numpy
import pytest

onnx = pytest.importorskip('onnx')
ort = pytest.importorskip('onnxruntime')

import minichainer  # noqa: E402
import minichainer.functions as F  # noqa: E402
from minichainer.onnx import export  # noqa: E402
from minichainer.onnx.export import MAXIMUM_OPSET_VERSION  # noqa: E402
from minichainer.onnx.export import MINIMUM_OPSET_VERSION  # noqa: E402

from _onnx_roundtrip import roundtrip_function as roundtrip  # noqa: E402

MIN, MAX = MINIMUM_OPSET_VERSION, MAXIMUM_OPSET_VERSION
#: every opset
CHANGES = list(range(MIN, MAX + 1))


def _x(*shape, dtype=numpy.float32):
    return numpy.asarray(numpy.arange(numpy.prod(shape), dtype=numpy.float64).reshape(shape)
                         * 0.5 - 3).astype(dtype)


# -- elementwise ------------------------------------------------------------------------

def _positive(*shape):
    return (numpy.arange(1, numpy.prod(shape) + 1, dtype=numpy.float32).reshape(shape)
            / 10.0)


UNARY = [
    (lambda a: -a, 'Neg', 7),
    (lambda a: abs(a - 0.3), 'Abs', 7),
    (F.arccos, 'Acos', 7),
    (F.arcsin, 'Asin', 7),
    (F.arctan, 'Atan', 7),
    (F.arctanh, 'Atanh', 9),
    (F.cos, 'Cos', 7),
    (F.sin, 'Sin', 7),
    (F.tan, 'Tan', 7),
    (F.cosh, 'Cosh', 9),
    (F.sinh, 'Sinh', 9),
    (F.exp, 'Exp', 7),
    (F.log, 'Log', 7),
    (F.log2, 'Log', 7),
    (F.log10, 'Log', 7),
    (F.log1p, 'Log', 7),
    (F.expm1, 'Exp', 7),
    (F.sqrt, 'Sqrt', 7),
    (F.rsqrt, 'Sqrt', 7),
    (F.square, 'Mul', 7),
    (F.erf, 'Erf', 9),
    (F.erfc, 'Erf', 9),
    (F.identity, 'Identity', 7),
    (lambda a: F.clip(a, 0.15, 0.45), 'Clip', 7),
    (lambda a: F.clip(a, None, 0.45), 'Clip', 7),
    (lambda a: F.clip(a, 0.15, None), 'Clip', 7),
    (lambda a: a + 1, 'Add', 7),
    (lambda a: a * 2, 'Mul', 7),
    (lambda a: 1 - a, 'Sub', 7),
    (lambda a: a - 1, 'Add', 7),
    (lambda a: 2 / a, 'Div', 7),
    (lambda a: a / 4, 'Mul', 7),
    (lambda a: a ** 2.3, 'Pow', 7),
    (lambda a: 2.3 ** a, 'Pow', 7),
    (lambda a: a + numpy.array([1, 2, 3], numpy.float32), 'Add', 7),
]


@pytest.mark.parametrize('fn, op, since', UNARY)
def test_unary(fn, op, since):
    # arguments in (0, 0.7]: inside every function's domain (arccos, arctanh, log)
    roundtrip(fn, _positive(2, 3) * 0.7, opsets=range(since, MAX + 1), ops=[op])
    if since > MIN:
        with pytest.raises(RuntimeError, match='opset'):
            export(minichainer.Sequential(fn), _positive(2, 3), opset_version=since - 1)


def test_unary_float64():
    roundtrip(F.exp, _positive(2, 3).astype(numpy.float64), opsets=[MIN, MAX], rtol=1e-12)


def test_sign():
    # F.sign makes no FunctionNode (as Chainer's): wrapped as onnx_chainer's exporter does
    from minichainer.onnx.replace_func import fake_as_funcnode
    sign = fake_as_funcnode(F.sign, 'sign', experimental_warning=False)
    x = numpy.array([[-1.5, 0, 2]], numpy.float32)
    roundtrip(sign, minichainer.Variable(x), opsets=range(9, MAX + 1), ops=['Sign'], rtol=0,
              atol=0, warns=True)


# -- binary and more ----------------------------------------------------------------------

def _pair(kind):
    a = {'matrix': _positive(5, 2, 3), 'vector': _positive(2),
         'scalar': numpy.array(7, numpy.float32)}[kind]
    b = {'matrix': _positive(5, 2, 3) * 0.3, 'vector': _positive(2) * 0.3,
         'scalar': numpy.array(2, numpy.float32)}[kind]
    return a, b


@pytest.mark.parametrize('fn, op', [
    (lambda a, b: a + b, 'Add'), (lambda a, b: a - b, 'Sub'), (lambda a, b: a * b, 'Mul'),
    (lambda a, b: a / b, 'Div'), (lambda a, b: a ** b, 'Pow'),
    (F.maximum, 'Max'), (F.minimum, 'Min'), (F.squared_difference, 'Mul'),
    (lambda a, b: F.add(a, b, a), 'Sum'),
])
@pytest.mark.parametrize('kind', ['matrix', 'vector', 'scalar'])
def test_binary(fn, op, kind):
    a, b = _pair(kind)
    roundtrip(fn, minichainer.Variable(a), minichainer.Variable(b), ops=[op])


def test_broadcasting_add_of_several():
    # Sum broadcasts from opset 8; before, a chain of Adds
    model = roundtrip(lambda a, b, c: F.add(a, b, c), _positive(2, 3), _positive(3),
                      _positive(1, 3), opsets=[MIN])
    assert 'Add' in {n.op_type for n in model.graph.node}
    roundtrip(lambda a, b, c: F.add(a, b, c), _positive(2, 3), _positive(3), _positive(1, 3),
              opsets=range(8, MAX + 1), ops=['Sum'])


def test_fmod():
    x = numpy.array([[-7.5, 5.0, 3.25]], numpy.float32)
    d = numpy.array([[2.0, -3.0, 1.5]], numpy.float32)
    roundtrip(F.fmod, x, d, opsets=range(10, MAX + 1), ops=['Mod'])


@pytest.mark.parametrize('shapes, kwargs', [
    (((3, 4), (4, 2)), {}),
    (((4, 3), (4, 2)), {'transa': True}),
    (((3, 4), (2, 4)), {'transb': True}),
    (((5, 4, 3), (5, 2, 4)), {'transa': True, 'transb': True}),
    (((2, 1, 3, 4), (5, 4, 2)), {}),
    (((4,), (4, 2)), {}),
    (((3, 4), (4,)), {}),
])
def test_matmul(shapes, kwargs):
    a, b = (_positive(*s) for s in shapes)
    roundtrip(lambda a, b: F.matmul(a, b, **kwargs), a, b, ops=['MatMul'])


def test_linear_interpolate():
    p = _positive(2, 3) / 2
    roundtrip(F.linear_interpolate, p, _positive(2, 3) * 0.3, _positive(2, 3) * 0.7)


def test_broadcast_to():
    roundtrip(lambda a: F.broadcast_to(a, (2, 2, 3)), _positive(2, 3))


# -- reductions ---------------------------------------------------------------------------

REDUCTIONS = [
    (F.sum, 'ReduceSum'), (F.mean, 'ReduceMean'), (F.max, 'ReduceMax'),
    (F.min, 'ReduceMin'), (F.prod, 'ReduceProd'),
]


@pytest.mark.parametrize('fn, op', REDUCTIONS)
@pytest.mark.parametrize('kwargs', [{}, {'axis': 1}, {'axis': (0, -1)}, {'keepdims': True},
                                    {'axis': -2, 'keepdims': True}])
def test_reduction(fn, op, kwargs):
    roundtrip(lambda a: fn(a, **kwargs), _positive(2, 3, 4) / 5, ops=[op])


@pytest.mark.parametrize('axis', [None, 0, (0, 2), -1])
def test_logsumexp(axis):
    roundtrip(lambda a: F.logsumexp(a, axis=axis), _positive(2, 3, 4), ops=['ReduceLogSumExp'])


def test_average_without_weights():
    roundtrip(lambda a: F.average(a, axis=1), _positive(2, 3, 4))


@pytest.mark.parametrize('cls', ['ArgMax', 'ArgMin'])
@pytest.mark.parametrize('axis', [None, 0, 1, -1])
def test_argmax_argmin(cls, axis):
    from minichainer.functions.math import minmax
    node = getattr(minmax, cls)
    x = numpy.random.RandomState(1).rand(2, 3, 4).astype(numpy.float32)
    roundtrip(lambda a: node(axis).apply((a,))[0], x, rtol=0, atol=0)


def test_sum_to():
    from minichainer.functions.math.sum import SumTo

    def fn(a):
        return SumTo((3, 1)).apply((a,))[0]
    roundtrip(fn, _positive(2, 3, 4), ops=['ReduceSum'])


def test_batch_l2_norm_squared():
    roundtrip(F.batch_l2_norm_squared, _positive(2, 3, 4))


@pytest.mark.parametrize('axis', [None, 0, -1])
def test_cumsum(axis):
    roundtrip(lambda a: F.cumsum(a, axis=axis), _positive(2, 3, 4), opsets=range(11, MAX + 1),
              ops=['CumSum'])


@pytest.mark.parametrize('subscripts, shapes', [
    ('ij,jk->ik', [(2, 3), (3, 4)]),
    ('ij->ji', [(2, 3)]),
    ('bij,bjk->bik', [(2, 2, 3), (2, 3, 2)]),
    ('...ij,...j->...i', [(2, 3, 4), (2, 4)]),
    ('ii->', [(3, 3)]),
])
def test_einsum(subscripts, shapes):
    xs = [_positive(*s) for s in shapes]
    roundtrip(lambda *xs: F.einsum(subscripts, *xs), *xs, opsets=range(12, MAX + 1),
              ops=['Einsum'])


def test_det():
    x = numpy.random.RandomState(2).standard_normal((3, 4, 4)).astype(numpy.float32)
    # LU factorizations in other orders: rtol 1e-4 of the determinants (~1 to 10)
    roundtrip(F.batch_det, x, opsets=range(11, MAX + 1), ops=['Det'], atol=1e-4)
    roundtrip(F.det, x[0], opsets=[11, MAX], ops=['Det'], atol=1e-4)


@pytest.mark.parametrize('shapes, axes', [
    (((3, 4, 5), (4, 5, 2)), 2),
    (((3, 4), (4, 2)), 1),
    (((3, 4, 5), (5, 3, 2)), ((0, 2), (1, 0))),
    (((2, 3), (4, 5)), 0),
])
def test_tensordot(shapes, axes):
    a, b = (_positive(*s) for s in shapes)
    roundtrip(lambda a, b: F.tensordot(a, b, axes), a, b, opsets=range(12, MAX + 1),
              ops=['Einsum'])
