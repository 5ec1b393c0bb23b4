import numpy as np
import pytest

from minichainer import initializers


@pytest.mark.parametrize('cls, value', [
    (initializers.Zero, 0.0), (initializers.One, 1.0)])
def test_fixed_constants(cls, value):
    a = np.empty((2, 3), np.float32)
    cls()(a)
    np.testing.assert_array_equal(a, np.full((2, 3), value, np.float32))


def test_nan():
    a = np.zeros((4,), np.float64)
    initializers.NaN()(a)
    assert np.isnan(a).all()


def test_constant_scalar_and_broadcast_array():
    a = np.empty((2, 3), np.float32)
    initializers.Constant(2.5)(a)
    assert (a == 2.5).all()
    initializers.Constant(np.array([1., 2., 3.]))(a)
    np.testing.assert_array_equal(a, [[1, 2, 3], [1, 2, 3]])


def test_constant_rejects_non_scalar_fill_value():
    with pytest.raises(ValueError, match='fill_value'):
        initializers.Constant([1, 2])


def test_dtype_mismatch_is_reported():
    a = np.empty((2,), np.float32)
    with pytest.raises(ValueError, match='float64'):
        initializers.Zero(dtype=np.float64)(a)
    # Chainer signals this with assert: it is also an AssertionError.
    with pytest.raises(AssertionError):
        initializers.One(dtype=np.float64)(a)


def test_identity():
    a = np.empty((3, 3), np.float32)
    initializers.Identity(scale=2.0)(a)
    np.testing.assert_array_equal(a, 2 * np.eye(3))


@pytest.mark.parametrize('shape', [(3,), (2, 3), (2, 2, 2)])
def test_identity_rejects_non_square(shape):
    with pytest.raises(ValueError, match='square'):
        initializers.Identity()(np.empty(shape, np.float32))
