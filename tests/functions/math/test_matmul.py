import warnings

import numpy
import pytest

import minichainer.functions as F
from minichainer import gradient_check
from minichainer.utils import type_check


def _x(shape, seed=0, dtype=numpy.float64):
    return numpy.random.RandomState(seed).uniform(-1, 1, shape).astype(dtype)


def _t(a, trans):
    return numpy.swapaxes(a, -1, -2) if trans and a.ndim >= 2 else a


CASES = [((3, 4), (4, 5)), ((2, 3, 4), (2, 4, 5)), ((2, 3, 4), (4, 5)),
         ((1, 3, 4), (2, 4, 5)), ((4,), (4, 5)), ((3, 4), (4,)), ((4,), (4,)),
         ((2, 1, 3, 4), (3, 4, 2))]


@pytest.mark.parametrize('a_shape, b_shape', CASES)
@pytest.mark.parametrize('transa', [False, True])
@pytest.mark.parametrize('transb', [False, True])
def test_matmul(a_shape, b_shape, transa, transb):
    a = _t(_x(a_shape, 1), transa).copy()
    b = _t(_x(b_shape, 2), transb).copy()
    y = F.matmul(a, b, transa=transa, transb=transb)
    expected = numpy.matmul(_t(a, transa), _t(b, transb))
    numpy.testing.assert_allclose(y.array, expected, rtol=1e-10)
    gy = _x(expected.shape, 3)
    f = lambda u, v: F.matmul(u, v, transa=transa, transb=transb)  # noqa: E731
    gradient_check.check_backward(f, (a, b), gy)
    if a.ndim >= 2 and b.ndim >= 2 and len(a_shape) <= 3:
        gradient_check.check_double_backward(f, (a, b), gy, (_x(a.shape, 4), _x(b.shape, 5)))


def test_matmul_float32():
    a, b = _x((3, 4), dtype=numpy.float32), _x((4, 2), dtype=numpy.float32)
    y = F.matmul(a, b)
    assert y.dtype == numpy.float32


def test_matmul_shape_mismatch_message():
    with pytest.raises(type_check.InvalidType) as info:
        F.matmul(_x((3, 4)), _x((5, 2)))
    assert 'a.shape[-1] == b.shape[-2]' in str(info.value)
    assert 'Actual: 4 != 5' in str(info.value)


def test_batch_matmul_deprecated():
    a, b = _x((2, 3, 4)), _x((2, 4, 5))
    with pytest.warns(DeprecationWarning):
        y = F.batch_matmul(a, b)
    numpy.testing.assert_allclose(y.array, numpy.matmul(a, b))
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        y = F.batch_matmul(_x((2, 3)), _x((2, 3)), transa=True)
    assert y.shape == (2, 1, 1)
