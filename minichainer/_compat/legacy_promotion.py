"""Legacy-NumPy mode, part three: NumPy 1's type promotion for arithmetic operators.

NumPy 2 promotes by NEP 50: a Python scalar is "weak" (it takes the other operand's
dtype) and a NumPy scalar or 0-d array is as strong as an array. NumPy 1 did it the other
way round for the cases below, and Chainer-era code relies on them (an advantage summed
from `float32` scalars and Python floats was `float64` on NumPy 1, `float32` on NumPy 2).
The promotion is in NumPy's C code; no setting of NumPy 2.2+ restores it. So the legacy
mode rewrites users' `a + b`, `a - b`, `a * b`, `a / b`, `a // b`, `a % b`, `a ** b` and
the augmented assignments of these to a plain name (`x += y`) into calls of the helpers
here (see [`legacy_conversions`][minichainer._compat.legacy_conversions] for what users'
code is), which hand every operand pair straight to the operator except:

1. a NumPy scalar or 0-d array with a Python `int`, `float` or `complex`: the Python
   scalar becomes NumPy's default scalar of its kind first (`int64`, `float64`,
   `complex128`), so `float32(1.5) + 0.1` is `float64` as on NumPy 1;
2. a NumPy scalar or 0-d array with an array of `ndim > 0`, the scalar's kind (bool <
   integer < floating or complex) not above the array's: the scalar is cast first to the
   type NumPy 1 chose from its value (`result_type(array.dtype, min_scalar_type(s))`,
   a non-negative integer counting as signed against a signed array), so
   `float32_array * np.float64(0.1)` stays `float32`;
3. an array of `ndim > 0` with a Python scalar whose value NumPy 1 would have promoted
   for (`float16_array + 1e5` is `float32`, `int8_array + 300` is `int16`,
   `uint8_array + (-1)` is `int16`);
4. `array ** e` (any `ndim`) with `e` one of -1, 0, 0.5, 1, 2, which NumPy 1 computed
   by a unary ufunc keeping a floating array's dtype (`2` also an integer array's).

Checked against NumPy 1.26 on 13,041 operand pairs (bool/int/uint/float/complex scalars,
0-d and n-d arrays, Python scalars, seven operators): the same dtype and value in all
but one, a bool array raised to a NumPy unsigned-integer power (`int8` on NumPy 1).
"""
import operator
import sys

_OTHER, _SCALAR, _ARRAY = 0, 1, 2


class _ClassKinds(dict):
    """class -> whether its instances are NumPy arrays, numeric NumPy scalars, or other."""

    def __missing__(self, cls):
        # No NumPy imported: no NumPy object exists either. On NumPy 1 every class is
        # "other", so the helpers are the plain operators there.
        kind = _OTHER
        np = sys.modules.get('numpy')
        if np is not None and not np.__version__.startswith('1.'):
            if issubclass(cls, np.ndarray):
                kind = _ARRAY
            elif issubclass(cls, (np.number, np.bool_)):
                kind = _SCALAR
        self[cls] = kind
        return kind


_kinds = _ClassKinds()
_PYTHON_SCALARS = (int, float, complex)   # exact types: bool and np.float64 are not these
# NumPy 1's kinds for value-based promotion: floating and complex were one kind.
_CATEGORY = {'b': 0, 'u': 1, 'i': 1, 'f': 2, 'c': 2}
_PYTHON_CATEGORY = {int: 1, float: 2, complex: 2}
_INT64_RANGE = (-2 ** 63, 2 ** 63 - 1)
_INF = float('inf')
_FLOAT_MAX = {2: 65504.0, 4: 3.4028234663852886e+38}   # float16, float32 by itemsize
# NumPy 1's `array ** s` for these exponents ran a unary ufunc keeping the array's dtype.
_FAST_EXPONENTS = (-1.0, 0.0, 0.5, 1.0, 2.0)


class _StrongerPython(dict):
    """(NumPy scalar's class, or a 0-d array's dtype; Python scalar type) -> the NumPy
    type NumPy 1 made of the Python scalar when all operands were scalars (int64,
    float64, complex128), where that changes the result's dtype from NumPy 2's; None
    where it does not."""

    def __missing__(self, key):
        numpy_type, cls = key
        np = sys.modules['numpy']
        dtype = np.dtype(numpy_type)
        convert = None
        if dtype.kind in _CATEGORY:
            default = {int: np.int64, float: np.float64, complex: np.complex128}[cls]
            if np.result_type(dtype, default) != np.result_type(dtype, cls(0)):
                convert = default
        self[key] = convert
        return convert


_stronger_python = _StrongerPython()


def _python_meets_scalar(value, scalar, scalar_kind):
    numpy_type = scalar.__class__ if scalar_kind == _SCALAR else scalar.dtype
    convert = _stronger_python[numpy_type, value.__class__]
    if convert is None or (value.__class__ is int and
                           not _INT64_RANGE[0] <= value <= _INT64_RANGE[1]):
        return value   # an int NumPy 1 would not have made an int64 of stays as it is
    return convert(value)


def _value_type(value, dtype, np, searched):
    """The type NumPy 1 gave a scalar `value` meeting an array of `dtype`: the smallest
    that holds the value, where a non-negative integer that fits the signed type of that
    size counts as signed against a signed array. `searched`: the operator's loop was
    chosen by NumPy 1's search over its loops in order (`//`, `%`, `**`), which finds a
    signed type before the unsigned one of the same size."""
    small = np.min_scalar_type(value)
    if small.kind == 'u' and dtype.kind == 'i' and \
            value <= np.iinfo('i{}'.format(small.itemsize)).max:
        small = np.dtype('i{}'.format(small.itemsize))
    target = np.result_type(dtype, small)
    if searched and dtype.kind == 'u' and target.kind == 'u' and target != dtype:
        signed = np.dtype('i{}'.format(target.itemsize))
        if np.iinfo(signed).min <= value <= np.iinfo(signed).max:
            return signed
    return target


def _scalar_meets_array(scalar, array, searched):
    """A NumPy scalar/0-d array meeting an array: cast to the type NumPy 1 chose from its
    value, when its kind is not above the array's (otherwise NumPy 1 promoted by type,
    as NumPy 2 does)."""
    dtype = array.dtype
    scalar_dtype = scalar.dtype
    if scalar_dtype.kind == 'f' and dtype.kind == 'f':   # the common case, without NumPy calls
        if dtype.itemsize >= scalar_dtype.itemsize:
            return scalar
        limit = _FLOAT_MAX[dtype.itemsize]
        if -limit <= scalar <= limit or scalar != scalar:
            return dtype.type(scalar)
    category = _CATEGORY.get(scalar_dtype.kind)
    array_category = _CATEGORY.get(dtype.kind)
    if category is None or array_category is None or category > array_category:
        return scalar
    np = sys.modules['numpy']
    return _value_type(scalar, dtype, np, searched).type(scalar)


def _python_meets_array(value, array, searched):
    """A Python scalar meeting an array: NumPy 2 takes the array's dtype (or its kind's
    default) whatever the value; NumPy 1 chose by value. Converted only where they differ."""
    cls = value.__class__
    if cls is int:
        if 0 <= value <= 127:
            return value   # NumPy 1 kept every numeric array's dtype for these
        low, high = _ints_keeping(array.dtype)
        if low <= value <= high:
            return value
    elif cls is float:
        if -65504.0 <= value <= 65504.0 or value != value or value in (_INF, -_INF):
            return value   # within every float type's range: the array's dtype on both
    else:
        return value   # complex: NumPy 1's and 2's results agree but for huge values
    dtype = array.dtype
    array_category = _CATEGORY.get(dtype.kind)
    if array_category is None or _PYTHON_CATEGORY[cls] > array_category:
        return value
    if cls is float:
        limit = _FLOAT_MAX.get(dtype.itemsize // 2 if dtype.kind == 'c' else dtype.itemsize) \
            if dtype.kind in 'fc' else None
        if limit is None or -limit <= value <= limit:
            return value
    target = _value_type(value, dtype, sys.modules['numpy'], searched)
    if target == dtype or target.kind not in _CATEGORY:
        return value
    return target.type(value)


def _ints_keeping(dtype):
    """The Python ints with which NumPy 1 kept an array's dtype (those its smallest type
    promotes into it): the integer type's range; for float16/32/64 (and complex64/128) the
    int8-uint8, int16-uint16 and any int64/uint64 values; none for other dtypes."""
    kind = dtype.kind
    bits = 8 * dtype.itemsize
    if kind == 'i':
        return -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    if kind == 'u':
        return 0, (1 << bits) - 1
    if kind in 'fc':
        bits = bits // 2 if kind == 'c' else bits
        if bits >= 64:
            return -(1 << 63), (1 << 64) - 1
        return -(1 << (bits // 2 - 1)), (1 << (bits // 2)) - 1
    return 0, -1


def legacy_operands(a, b, kind_a=None, kind_b=None, searched=False):
    """The operands `(a, b)` of a binary arithmetic operator, cast where NumPy 1 and
    NumPy 2 promote them differently so that NumPy 2 gives NumPy 1's result. `kind_a`,
    `kind_b`: the operands' class kinds, when the caller has looked them up; `searched`:
    the operator is `//`, `%` or `**` (see `_value_type`)."""
    if kind_a is None:
        kind_a = _kinds[a.__class__]
        kind_b = _kinds[b.__class__]
    zero_d_a = kind_a == _ARRAY and not a.ndim   # NumPy 1 treated 0-d arrays as scalars
    zero_d_b = kind_b == _ARRAY and not b.ndim
    if kind_a == _SCALAR or zero_d_a:
        if kind_b == _ARRAY and not zero_d_b:
            a = _scalar_meets_array(a, b, searched)
        elif b.__class__ in _PYTHON_SCALARS:
            b = _python_meets_scalar(b, a, kind_a)
    elif kind_b == _SCALAR or zero_d_b:
        if kind_a == _ARRAY:
            b = _scalar_meets_array(b, a, searched)
        elif a.__class__ in _PYTHON_SCALARS:
            a = _python_meets_scalar(a, b, kind_b)
    elif kind_a == _ARRAY:
        if b.__class__ in _PYTHON_SCALARS:
            b = _python_meets_array(b, a, searched)
    elif a.__class__ in _PYTHON_SCALARS:   # and b is an array
        a = _python_meets_array(a, b, searched)
    return a, b


def _fast_power_exponent(base, exponent):
    """The exponent as a Python scalar when NumPy 1 computed `base ** exponent` by a
    unary ufunc keeping the array's dtype (reciprocal, ones, sqrt, identity, square of a
    floating or complex array; square of an integer array by an integer 2), else None."""
    cls = exponent.__class__
    if cls is not int and cls is not float and \
            (_kinds[cls] != _SCALAR or exponent.dtype.kind not in 'iuf'):
        return None
    kind = base.dtype.kind
    value = exponent if cls is int else float(exponent)
    if kind in 'fc':
        return value if value in _FAST_EXPONENTS else None
    if kind in 'iu' and value == 2 and (cls is int or exponent.dtype.kind in 'iu'):
        return 2
    return None


def _binary(op, power=False, searched=False):
    def legacy(a, b):
        kind_a = _kinds[a.__class__]
        kind_b = _kinds[b.__class__]
        if kind_a or kind_b:
            if power and kind_a == _ARRAY:
                exponent = _fast_power_exponent(a, b)
                if exponent is not None:
                    return op(a, exponent)
            a, b = legacy_operands(a, b, kind_a, kind_b, searched)
        return op(a, b)
    legacy.__name__ = 'legacy_' + op.__name__
    legacy.__qualname__ = legacy.__name__
    legacy.__doc__ = '`operator.{}(a, b)` with NumPy 1\'s promotion.'.format(op.__name__)
    return legacy


def _pair(op, in_place_op, power=False, searched=False):
    return _binary(op, power, searched), _binary(in_place_op, power, searched)


legacy_add, legacy_iadd = _pair(operator.add, operator.iadd)
legacy_sub, legacy_isub = _pair(operator.sub, operator.isub)
legacy_mul, legacy_imul = _pair(operator.mul, operator.imul)
legacy_truediv, legacy_itruediv = _pair(operator.truediv, operator.itruediv)
legacy_floordiv, legacy_ifloordiv = _pair(operator.floordiv, operator.ifloordiv, searched=True)
legacy_mod, legacy_imod = _pair(operator.mod, operator.imod, searched=True)
legacy_pow, legacy_ipow = _pair(operator.pow, operator.ipow, power=True, searched=True)


_announced_wrap = []


def legacy_scalar(cls, value):
    """`cls(value)`; a NumPy integer type given a Python `int` outside its range wraps the
    value as NumPy 1 did (`np.uint8(-1)` is 255; a DeprecationWarning since NumPy 1.24,
    an OverflowError since NumPy 2) instead of raising. The transform rewrites users'
    one-argument calls `<obj>.dtype(v)` and `<module>.<integer type>(v)` to it."""
    try:
        return cls(value)
    except OverflowError:
        np = sys.modules.get('numpy')
        if type(value) is not int or np is None or not isinstance(cls, type) or \
                not issubclass(cls, np.integer):
            raise
        try:
            wrapped = np.array(value).astype(cls)[()]
        except (OverflowError, TypeError, ValueError):
            raise OverflowError('Python integer {} out of bounds for {}'.format(
                value, np.dtype(cls).name)) from None
        if not _announced_wrap:
            _announced_wrap.append(True)
            from minichainer._compat.numpy_legacy import _announce_message
            _announce_message(
                'np.{0}({1}) raises OverflowError since NumPy 2 (NumPy 1.24 deprecated '
                'it); minichainer\'s legacy-NumPy mode wraps the value as NumPy 1 did, to '
                '{2}. Use `np.array({1}).astype(np.{0})` instead.'.format(
                    np.dtype(cls).name, value, wrapped), sys._getframe(1))
        return wrapped
