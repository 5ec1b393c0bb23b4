import numpy
import pytest

import minichainer
from minichainer import functions as F


@pytest.mark.parametrize('batchwise', [True, False])
def test_gradients_take_the_dtype_of_their_input(batchwise):
    x = minichainer.Variable(numpy.ones((4, 3), dtype=numpy.float32))
    W = minichainer.Variable(numpy.ones((2, 3), dtype=numpy.float64))
    y = F.simplified_dropconnect(x, W, None, 0.5, True, None, batchwise)
    assert y.dtype == numpy.float32
    gx, gW = minichainer.grad([F.sum(y)], [x, W])
    assert gx.dtype == numpy.float32
    assert gW.dtype == numpy.float64
