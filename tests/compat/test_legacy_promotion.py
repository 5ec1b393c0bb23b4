"""Legacy-NumPy mode: NumPy 1's promotion for users' arithmetic operators (NEP 50's "old").

Every expectation below is NumPy 1's result (NEP 50 lists the old behaviour; the rest is
NumPy 1.26's documented value-based casting). On NumPy 1 the helpers are the plain
operators, so the same assertions hold there by NumPy itself.
"""
import operator

import numpy
import pytest

from minichainer._compat import legacy_promotion as lp

NUMPY2 = not numpy.__version__.startswith('1.')
f16, f32, f64 = numpy.float16, numpy.float32, numpy.float64
i8, i16, i32, i64, u8 = numpy.int8, numpy.int16, numpy.int32, numpy.int64, numpy.uint8
c64, c128 = numpy.complex64, numpy.complex128


def arr(values, dtype):
    return numpy.array(values, dtype)


CASES = [
    # NumPy scalar or 0-d array with a Python scalar: the Python one counted as int64/float64
    (lp.legacy_add, lambda: (f32(1.5), 0.1), f64, 1.6),
    (lp.legacy_add, lambda: (0.1, f32(1.5)), f64, 1.6),
    (lp.legacy_mul, lambda: (f32(2), 3), f64, 6.0),
    (lp.legacy_add, lambda: (u8(1), 2), i64, 3),
    (lp.legacy_add, lambda: (u8(100), 200), i64, 300),
    (lp.legacy_add, lambda: (f32(1), 3e100), f64, 3e100),
    (lp.legacy_add, lambda: (arr(1.0, f32), 1e-14), f64, 1.0 + 1e-14),
    (lp.legacy_truediv, lambda: (f32(1), 3), f64, 1 / 3),
    (lp.legacy_sub, lambda: (c64(1 + 1j), 0.1), c128, 0.9 + 1j),
    (lp.legacy_pow, lambda: (f16(2), 3), f64, 8.0),
    # NumPy scalar or 0-d array with an array: by value, when its kind is not above
    (lp.legacy_add, lambda: (arr([1], u8), i64(1)), u8, [2]),
    (lp.legacy_add, lambda: (arr([1], u8), arr(1, i64)), u8, [2]),
    (lp.legacy_mul, lambda: (arr([1.5], f32), f64(0.1)), f32, [f32(1.5) * f32(0.1)]),
    (lp.legacy_mul, lambda: (f64(0.1), arr([1.5], f32)), f32, [f32(1.5) * f32(0.1)]),
    (lp.legacy_add, lambda: (arr([1.5], f16), i64(300)), f32, [301.5]),
    (lp.legacy_add, lambda: (arr([1], i8), i64(100)), i8, [101]),
    (lp.legacy_add, lambda: (arr([1], i8), i64(200)), i16, [201]),
    (lp.legacy_sub, lambda: (arr([3], u8), i64(-1)), i16, [4]),
    (lp.legacy_add, lambda: (arr([1.0], f32), f64(1e300)), f64, [1e300]),
    (lp.legacy_add, lambda: (arr([1.0], f32), c128(1j)), c64, [1 + 1j]),
    (lp.legacy_add, lambda: (arr([1], i8), f64(0.5)), f64, [1.5]),   # kind above: by type
    # an array with a Python scalar whose value NumPy 1 promoted for
    (lp.legacy_add, lambda: (arr([1.5], f16), 1e5), f32, [100001.5]),
    (lp.legacy_add, lambda: (arr([1.5], f16), 300), f32, [301.5]),
    (lp.legacy_add, lambda: (arr([1], i8), 300), i16, [301]),
    (lp.legacy_add, lambda: (arr([3], u8), -1), i16, [2]),
    (lp.legacy_mul, lambda: (arr([1.5], f32), 2), f32, [3.0]),   # same on both
    (lp.legacy_add, lambda: (arr([1.5], f32), 70000), f64, [70001.5]),
    (lp.legacy_add, lambda: (arr([1.5], f32), -32768), f32, [-32766.5]),
    (lp.legacy_add, lambda: (arr([1.5], c64), 1e300), c128, [1e300 + 0j]),
    # `//`, `%`, `**` chose their loop by a search that finds the signed type first
    (lp.legacy_add, lambda: (arr([3], u8), 300), numpy.uint16, [303]),
    (lp.legacy_floordiv, lambda: (arr([3], u8), 300), i16, [0]),
    (lp.legacy_mod, lambda: (70000, arr([3], numpy.uint16)), i32, [1]),
    (lp.legacy_floordiv, lambda: (i64(300), arr([3], u8)), i16, [100]),
    # NumPy 1's `array ** e` by a unary ufunc for e in -1, 0, 0.5, 1, 2
    (lp.legacy_pow, lambda: (arr(4.0, f32), -1), f32, 0.25),
    (lp.legacy_pow, lambda: (arr(4.0, f32), i64(2)), f32, 16.0),
    (lp.legacy_pow, lambda: (arr([4.0], f32), f64(0.5)), f32, [2.0]),
    (lp.legacy_pow, lambda: (arr(3, i8), numpy.uint64(2)), i8, 9),
    (lp.legacy_pow, lambda: (arr([4.0], f32), c64(1j)), c64,
     [numpy.power(c64(4.0), c64(1j))]),
]


@pytest.mark.parametrize('helper, operands, dtype, value', CASES)
def test_helpers_give_numpy1_dtypes_and_values(helper, operands, dtype, value):
    result = helper(*operands())
    assert numpy.asarray(result).dtype == dtype
    numpy.testing.assert_allclose(numpy.asarray(result), value, rtol=1e-6)


def test_plain_numpy_2_differs_where_the_helpers_restore():
    if not NUMPY2:
        pytest.skip('NumPy 1 promotes this way itself')
    assert type(f32(1.5) + 0.1) is f32
    assert (arr([1.5], f32) * f64(0.1)).dtype == f64
    assert type(lp.legacy_add(f32(1.5), 0.1)) is f64
    assert lp.legacy_mul(arr([1.5], f32), f64(0.1)).dtype == f32


def test_in_place_helpers_keep_the_array_and_its_dtype():
    a = arr([1.0, 2.0], f32)
    same = a
    same = lp.legacy_iadd(same, f64(0.5))
    assert same is a and a.dtype == f32 and a.tolist() == [1.5, 2.5]
    same = lp.legacy_ipow(same, 2)
    assert same is a and a.tolist() == [2.25, 6.25]
    total = 0.0
    for v in arr([1.5, 2.5], f32):
        total = lp.legacy_iadd(total, v)
    assert type(total) is f64 and total == 4.0


class _Other(object):
    def __add__(self, other):
        return 'add'

    def __radd__(self, other):
        return 'radd'


def _outcome(function, a, b):
    try:
        result = function(a, b)
    except Exception as e:   # the same exception, or the same value of the same type
        return 'raises', type(e), str(e)
    return 'gives', type(result), result


@pytest.mark.parametrize('helper, op', [
    (lp.legacy_add, operator.add), (lp.legacy_sub, operator.sub),
    (lp.legacy_mul, operator.mul), (lp.legacy_truediv, operator.truediv),
    (lp.legacy_floordiv, operator.floordiv), (lp.legacy_mod, operator.mod),
    (lp.legacy_pow, operator.pow)])
def test_other_operands_go_straight_to_the_operator(helper, op):
    for a, b in ((7, 2), (7.5, 2), (2, 0.5), (3 + 1j, 2), (True, 3), (1, 0), (None, 1),
                 ('x', None), (-8, 1 / 3)):
        assert _outcome(helper, a, b) == _outcome(op, a, b)


def test_sequences_strings_and_reflected_operators():
    assert lp.legacy_add([1], [2]) == [1, 2]
    assert lp.legacy_mul('ab', 2) == 'abab'
    assert lp.legacy_mod('%d-%s', (1, 'x')) == '1-x'
    assert lp.legacy_add(_Other(), f32(1)) == 'add'
    assert lp.legacy_add(f32(1), _Other()) == 'radd'
    assert lp.legacy_add(numpy.str_('a'), 'b') == 'ab'


def test_object_and_datetime_arrays_are_left_to_numpy():
    objects = numpy.array([1, 'a'], dtype=object)
    assert lp.legacy_mul(objects, 2).tolist() == [2, 'aa']
    day = numpy.datetime64('2020-01-01')
    assert lp.legacy_add(day, numpy.timedelta64(1, 'D')) == numpy.datetime64('2020-01-02')
