"""average_pooling_nd rounding checked against Chainer 7's own tests."""
import numpy

import minichainer
import minichainer.functions as F


def test_float16_gradient_rounds_like_average_pooling_2d():
    rng = numpy.random.RandomState(0)
    x = rng.uniform(-1, 1, (2, 3, 4, 3)).astype(numpy.float16)
    gy = rng.uniform(-1, 1, (2, 3, 2, 2)).astype(numpy.float16)
    grads = []
    for pool in (F.average_pooling_nd, F.average_pooling_2d):
        v = minichainer.Variable(x.copy())
        y = pool(v, 3, stride=2, pad=1)
        y.grad = gy
        y.backward()
        grads.append(v.grad)
    assert grads[0].dtype == numpy.float16
    numpy.testing.assert_array_equal(grads[0], grads[1])
