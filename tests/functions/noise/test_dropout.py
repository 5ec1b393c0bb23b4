import numpy
import pytest

import minichainer
import minichainer.functions as F
from minichainer import gradient_check
from minichainer.utils import type_check


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
@pytest.mark.parametrize('ratio', [0.0, 0.3, 0.5])
def test_dropout_mask_from_global_rng(dtype, ratio):
    x = numpy.random.RandomState(0).uniform(-1, 1, (4, 5)).astype(dtype)
    numpy.random.seed(7)
    y, mask = F.dropout(x, ratio, return_mask=True)
    next_draw = numpy.random.rand()
    numpy.random.seed(7)
    scale = dtype(1. / (1 - ratio))
    ref_mask = scale * (numpy.random.rand(4, 5) >= ratio)
    # the same number of draws as Chainer: the RNG continues identically afterwards
    assert numpy.random.rand() == next_draw
    assert mask.dtype == dtype and y.dtype == dtype
    numpy.testing.assert_array_equal(mask, ref_mask)
    numpy.testing.assert_array_equal(y.array, x * ref_mask)


def test_dropout_test_mode_is_identity_without_draw():
    x = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)
    numpy.random.seed(1)
    with minichainer.using_config('train', False):
        y, mask = F.dropout(x, 0.5, return_mask=True)
    assert isinstance(y, minichainer.Variable)
    assert mask is None
    numpy.testing.assert_array_equal(y.array, x)
    numpy.random.seed(1)
    expected = numpy.random.rand()
    numpy.random.seed(1)
    with minichainer.using_config('train', False):
        F.dropout(x)
    assert numpy.random.rand() == expected


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
def test_dropout_given_mask_and_gradients(dtype):
    rng = numpy.random.RandomState(0)
    x = rng.uniform(-1, 1, (3, 4)).astype(dtype)
    mask = (rng.rand(3, 4) >= 0.4).astype(dtype) / dtype(0.6)
    gy = rng.uniform(-1, 1, (3, 4)).astype(dtype)
    ggx = rng.uniform(-1, 1, (3, 4)).astype(dtype)

    def f(x):
        return F.dropout(x, 0.4, mask=mask)
    numpy.testing.assert_array_equal(f(x).array, x * mask)
    opts = {'dtype': numpy.float64, 'atol': 1e-2, 'rtol': 1e-2} \
        if dtype == numpy.float16 else {'atol': 1e-4, 'rtol': 1e-4}
    gradient_check.check_backward(f, x, gy, **opts)
    gradient_check.check_double_backward(f, x, gy, ggx, **opts)


def test_dropout_bad_ratio():
    with pytest.raises(ValueError):
        F.dropout(numpy.zeros(3, numpy.float32), 1.0)
    with pytest.raises(ValueError):
        F.dropout(numpy.zeros(3, numpy.float32), -0.1)


def test_dropout_train_kwarg_rejected():
    with pytest.raises(ValueError):
        F.dropout(numpy.zeros(3, numpy.float32), train=True)


def test_dropout_rejects_int():
    with pytest.raises(type_check.InvalidType):
        F.dropout(numpy.zeros(3, numpy.int32))


def test_dropout_0dim():
    x = numpy.array(2., numpy.float32)
    numpy.random.seed(0)
    y = F.dropout(x, 0.5)
    numpy.random.seed(0)
    keep = numpy.random.rand() >= 0.5
    assert isinstance(y.array, numpy.ndarray) and y.shape == ()
    assert y.array == (4. if keep else 0.)
