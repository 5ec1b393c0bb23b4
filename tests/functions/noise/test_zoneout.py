import numpy

import minichainer
import minichainer.functions as F
from minichainer import gradient_check


def test_zoneout_forward_and_rng():
    rng = numpy.random.RandomState(0)
    h = rng.uniform(-1, 1, (3, 4)).astype(numpy.float32)
    x = rng.uniform(-1, 1, (3, 4)).astype(numpy.float32)
    numpy.random.seed(2)
    y = F.zoneout(h, x, ratio=0.3)
    numpy.random.seed(2)
    flag_x = numpy.random.rand(3, 4) >= 0.3
    numpy.testing.assert_array_equal(y.array, numpy.where(flag_x, x, h))


def test_zoneout_test_mode_returns_x():
    h = numpy.zeros(3, numpy.float32)
    x = numpy.ones(3, numpy.float32)
    with minichainer.using_config('train', False):
        assert F.zoneout(h, x) is x


def test_zoneout_backward():
    rng = numpy.random.RandomState(1)
    h, x, gy = (rng.uniform(-1, 1, (3, 4)) for _ in range(3))

    def f(h, x):
        numpy.random.seed(3)
        return F.zoneout(h, x)
    gradient_check.check_backward(f, (h, x), gy, atol=1e-6, rtol=1e-6)


def test_zoneout_0dim():
    y = F.zoneout(numpy.array(1., numpy.float32), numpy.array(2., numpy.float32))
    assert isinstance(y.array, numpy.ndarray) and y.array in (1., 2.)
