import numpy
import pytest

from minichainer.utils import type_check as T


def _types(*arrays):
    return T.get_types(tuple(arrays), 'in_types', False)


def test_expression_strings():
    x = T.Variable(1, 'x')
    y = T.Variable(2, 'y')
    assert str(x + y * 2) == 'x + y * 2'
    assert str((x + y) * 2) == '(x + y) * 2'
    assert str(x - (y - 1)) == 'x - (y - 1)'
    assert str(x ** y ** 2) == 'x ** y ** 2'
    assert str((x ** y) ** 2) == '(x ** y) ** 2'
    assert str(-x) == '-x'
    assert str(x.shape[1:]) == 'x.shape[1:]'
    assert str(x[..., 0]) == 'x[..., 0]'
    assert str(T.prod([x, y])) == 'prod([x, y])'
    assert (x + y).eval() == 3
    assert (x < y).eval() is True


def test_expr_refuses_bool():
    x = T.Variable(1, 'x')
    with pytest.raises(RuntimeError):
        bool(x == 1)


def test_expect_message_with_argnames():
    t = _types(numpy.zeros((3, 5), numpy.float32), numpy.zeros((8, 4), numpy.float32))
    T.argname(t, ('x', 'W'))
    x_type, w_type = t
    with pytest.raises(T.InvalidType) as info:
        T.expect(x_type.shape[1] == w_type.shape[1])
    assert str(info.value) == 'Expect: x.shape[1] == W.shape[1]\nActual: 5 != 4'
    assert info.value.expect == 'x.shape[1] == W.shape[1]'
    assert info.value.actual == '5 != 4'


def test_expect_dtype_and_size():
    t = _types(numpy.zeros(3, numpy.int32))
    T.expect(t.size() == 1)
    with pytest.raises(T.InvalidType, match='in_types\\[0\\].dtype.kind == f\nActual: i != f'):
        T.expect(t[0].dtype.kind == 'f')
    with pytest.raises(T.InvalidType, match='in_types.size == 2'):
        T.expect(t.size() == 2)


def test_argname_count_mismatch():
    t = _types(numpy.zeros(3))
    with pytest.raises(T.InvalidType, match='Invalid number of arguments'):
        T.argname(t, ('x', 'y'))


def test_light_mode_uses_plain_values():
    arrays = (numpy.zeros((2, 3)),)
    light = T.get_light_types(arrays)
    with T.light_mode:
        assert T.in_light_mode()
        T.expect(light[0].ndim == 2, light.size() == 1)
        assert T.eval(light[0].shape) == (2, 3)
        assert T.prod((2, 3)) == 6
        with pytest.raises(T.InvalidType):
            T.expect(light[0].ndim == 3)
    assert not T.in_light_mode()


def test_expect_broadcast_shapes():
    t = _types(numpy.zeros((3, 1)), numpy.zeros((1, 4)), numpy.zeros((2, 4)))
    T.expect_broadcast_shapes(t[0].shape, t[1].shape)
    with pytest.raises(T.InvalidType, match='cannot broadcast'):
        T.expect_broadcast_shapes(t[0].shape, t[2].shape)


def test_function_context_names_function():
    class F:
        label = 'MyFunc'

    with T.get_function_check_context(F()):
        err = T.InvalidType('a', 'b')
    assert 'Invalid operation is performed in: MyFunc (Forward)' in str(err)
    assert 'Invalid operation' not in str(T.InvalidType('a', 'b'))


def test_same_types():
    assert T.same_types(numpy.zeros(1), numpy.zeros(2))
    assert not T.same_types(numpy.zeros(1), [1])
