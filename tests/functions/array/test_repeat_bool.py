import numpy
import pytest

import minichainer
from minichainer import functions as F


@pytest.mark.parametrize('repeats', [True, (True,), (True, True)])
def test_bool_repeats_backward(repeats):
    x = minichainer.Variable(numpy.array([1., 2.], dtype=numpy.float32))
    y = F.repeat(x, repeats)
    numpy.testing.assert_array_equal(y.array, [1., 2.])
    y.grad = numpy.ones_like(y.array)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, [1., 1.])
