import numpy
import pytest

import minichainer
import minichainer.functions as F
from minichainer.utils import type_check

from _math_helpers import FLOAT_DTYPES, check_op


def away_from(x, points, margin=0.05):
    for p in points:
        near = numpy.abs(x - p) < margin
        x[near] = p + 2 * margin
    return x


@pytest.mark.parametrize('dtype', FLOAT_DTYPES)
@pytest.mark.parametrize('x_min,x_max', [(-0.5, 0.5), (None, 0.3), (-0.2, None)])
def test_clip(x_min, x_max, dtype):
    x = numpy.random.RandomState(0).uniform(-1, 1, (3, 4))
    x = away_from(x, [v for v in (x_min, x_max) if v is not None]).astype(dtype)
    check_op(lambda v: F.clip(v, x_min, x_max),
             lambda v: numpy.clip(v, x_min, x_max), (x,), dtype)


def test_clip_gradient_at_bounds_is_one():
    x = minichainer.Variable(numpy.array([-1., -0.5, 0., 0.5, 1.], numpy.float32))
    y = F.clip(x, -0.5, 0.5)
    y.grad = numpy.ones(5, numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, [0., 1., 1., 1., 0.])


def test_clip_errors():
    x = numpy.ones(3, numpy.float32)
    with pytest.raises(ValueError):
        F.clip(x, 1., 0.)
    with pytest.raises(ValueError):
        F.clip(x, None, None)
    with pytest.raises(type_check.InvalidType):
        F.clip(numpy.arange(3), 0., 1.)
