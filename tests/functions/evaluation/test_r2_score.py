import numpy
import pytest

import minichainer.functions as F
from minichainer.utils import type_check


def _r2(pred, true):
    ss_res = ((pred - true) ** 2).sum(axis=0)
    ss_tot = ((true - true.mean(axis=0)) ** 2).sum(axis=0)
    return numpy.where(ss_tot == 0, 0., 1 - ss_res / numpy.where(ss_tot == 0, 1, ss_tot))


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
@pytest.mark.parametrize('shape', [(10,), (10, 3)])
def test_r2_score(dtype, shape):
    rng = numpy.random.RandomState(0)
    true = rng.uniform(-1, 1, shape).astype(dtype)
    pred = (true + rng.uniform(-0.3, 0.3, shape)).astype(dtype)
    tol = 1e-2 if dtype == numpy.float16 else 1e-5
    raw = _r2(pred.astype(numpy.float64), true.astype(numpy.float64))
    avg = F.r2_score(pred, true)
    assert avg.shape == () and avg.dtype == dtype
    numpy.testing.assert_allclose(avg.array, raw.mean(), rtol=tol, atol=tol)
    values = F.r2_score(pred, true, multioutput='raw_values')
    assert values.shape == shape[1:] and values.dtype == dtype
    numpy.testing.assert_allclose(values.array, raw, rtol=tol, atol=tol)


def test_r2_score_constant_target_is_zero():
    true = numpy.ones((4, 2), numpy.float32)
    true[:, 1] = [1, 2, 3, 4]
    values = F.r2_score(true * 0.5, true, multioutput='raw_values').array
    assert values[0] == 0


def test_r2_score_bad_arguments():
    x = numpy.zeros(3, numpy.float32)
    with pytest.raises(ValueError):
        F.r2_score(x, x, multioutput='variance_weighted')
    with pytest.raises(NotImplementedError):
        F.r2_score(x, x, sample_weight=x)
    with pytest.raises(type_check.InvalidType):
        F.r2_score(x, numpy.zeros(4, numpy.float32))
