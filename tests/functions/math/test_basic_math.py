"""Arithmetic operators: forward, first- and second-order gradients, broadcasting, dtypes."""
import numpy
import pytest

import minichainer
import minichainer.functions as F
from minichainer import Variable, gradient_check
from minichainer.utils import type_check

TOL = {numpy.float16: dict(atol=5e-3, rtol=5e-2), numpy.float32: dict(atol=1e-4, rtol=1e-3),
       numpy.float64: dict(atol=1e-5, rtol=1e-4)}


def _data(shape, dtype, low=0.5, high=1.5, seed=0):
    rs = numpy.random.RandomState(seed)
    return rs.uniform(low, high, shape).astype(dtype)


BINARY = [
    ('add', lambda a, b: a + b, lambda a, b: a + b),
    ('sub', lambda a, b: a - b, lambda a, b: a - b),
    ('mul', lambda a, b: a * b, lambda a, b: a * b),
    ('div', lambda a, b: a / b, lambda a, b: a / b),
    ('pow', lambda a, b: a ** b, lambda a, b: a ** b),
]

SHAPES = [((3, 2), (3, 2)), ((3, 2), (2,)), ((3, 1), (1, 4)), ((), (2, 3))]


@pytest.mark.parametrize('name, op, ref', BINARY)
@pytest.mark.parametrize('shapes', SHAPES)
@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
def test_binary(name, op, ref, shapes, dtype):
    a = _data(shapes[0], dtype, seed=1)
    b = _data(shapes[1], dtype, seed=2)
    y = op(Variable(a), Variable(b))
    expected = ref(a, b)
    assert y.dtype == dtype and y.shape == expected.shape
    numpy.testing.assert_allclose(y.array, expected, **TOL[dtype])
    gy = _data(expected.shape, dtype, -1, 1, seed=3)
    ggs = (_data(shapes[0], dtype, -1, 1, seed=4), _data(shapes[1], dtype, -1, 1, seed=5))
    kw = dict(TOL[dtype])
    if dtype != numpy.float64:
        kw['dtype'] = numpy.float64
    gradient_check.check_backward(op, (a, b), gy, **kw)
    if dtype == numpy.float64:
        gradient_check.check_double_backward(op, (a, b), gy, ggs, **kw)


UNARY_CONST = [
    ('add_const', lambda x: x + 2.5, lambda a: a + 2.5),
    ('radd_const', lambda x: 2.5 + x, lambda a: 2.5 + a),
    ('sub_const', lambda x: x - 2.5, lambda a: a - 2.5),
    ('rsub_const', lambda x: 2.5 - x, lambda a: 2.5 - a),
    ('mul_const', lambda x: x * 2.5, lambda a: a * 2.5),
    ('rmul_const', lambda x: 2.5 * x, lambda a: 2.5 * a),
    ('div_const', lambda x: x / 2.5, lambda a: a / 2.5),
    ('rdiv_const', lambda x: 2.5 / x, lambda a: 2.5 / a),
    ('pow_const', lambda x: x ** 2.5, lambda a: a ** 2.5),
    ('pow_two', lambda x: x ** 2, lambda a: a ** 2),
    ('rpow_const', lambda x: 2.5 ** x, lambda a: 2.5 ** a),
    ('neg', lambda x: -x, lambda a: -a),
    ('abs', lambda x: abs(x - 1.0), lambda a: abs(a - 1.0)),
    ('absolute', lambda x: F.absolute(x - 1.0), lambda a: abs(a - 1.0)),
    ('array_const', lambda x: x * numpy.array([2.0, 3.0]), lambda a: a * [2.0, 3.0]),
    ('radd_array_const', lambda x: numpy.array([2.0, 3.0]) + x, lambda a: a + [2.0, 3.0]),
    ('broadcast_array_const', lambda x: x + numpy.ones((4, 3, 2)),
     lambda a: a + numpy.ones((4, 3, 2))),
]


@pytest.mark.parametrize('name, op, ref', UNARY_CONST)
@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
def test_unary_and_constant(name, op, ref, dtype):
    a = _data((3, 2), dtype, 0.2, 1.8)
    if name.startswith('abs'):
        a = numpy.array([[0.2, 1.7], [0.5, 1.4], [1.3, 0.6]], dtype)  # away from the kink
    y = op(Variable(a))
    expected = ref(a.astype(numpy.float64))
    assert y.dtype == dtype
    numpy.testing.assert_allclose(y.array, expected, **TOL[dtype])
    gy = _data(expected.shape, dtype, -1, 1, seed=3)
    kw = dict(TOL[dtype])
    if dtype != numpy.float64:
        kw['dtype'] = numpy.float64
    gradient_check.check_backward(op, a, gy, **kw)
    if dtype == numpy.float64:
        gradient_check.check_double_backward(op, a, gy, _data((3, 2), dtype, -1, 1, 4), **kw)


def test_labels():
    x = Variable(numpy.ones(2, numpy.float32))
    assert (x + 1).creator.label == '_ + 1.0'
    assert (x * -2).creator.label == '_ * (-2.0)'
    assert (x + x).creator.label == '_ + _'
    assert (x ** 2).creator.label == '_ ** 2.0'
    assert (-x).creator.label == '__neg__'


def test_mismatched_dtypes_raise():
    x = Variable(numpy.ones(2, numpy.float32))
    y = Variable(numpy.ones(2, numpy.float64))
    with pytest.raises(type_check.InvalidType, match='lhs.dtype == rhs.dtype'):
        x + y


def test_mismatched_shapes_name_the_op():
    x = Variable(numpy.ones((2, 3), numpy.float32))
    y = Variable(numpy.ones((4,), numpy.float32))
    with pytest.raises(type_check.InvalidType) as info:
        x * y
    msg = str(info.value)
    assert 'performed in: _ * _' in msg and 'cannot broadcast' in msg
    assert 'lhs.shape = (2, 3)' in msg and 'rhs.shape = (4,)' in msg


def test_add_many():
    xs = [Variable(_data((2,), numpy.float32, seed=i)) for i in range(3)]
    y = F.add(*xs) if hasattr(F, 'add') else None
    from minichainer.functions.math.basic_math import add
    y = add(*xs)
    numpy.testing.assert_allclose(y.array, sum(x.array for x in xs), rtol=1e-6)
    gradient_check.check_backward(lambda *v: add(*v),
                                  tuple(x.array.astype(numpy.float64) for x in xs),
                                  numpy.ones(2))
