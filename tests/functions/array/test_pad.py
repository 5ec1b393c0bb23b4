import numpy
import pytest

import minichainer
import minichainer.functions as F
from minichainer.utils import type_check


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
@pytest.mark.parametrize('shape, pad_width, mode, kw', [
    ((2, 3), 1, 'constant', {}),
    ((2, 3), (1, 2), 'constant', {'constant_values': 0.5}),
    ((2, 3), ((1, 0), (0, 2)), 'constant', {}),
    ((2, 3, 2), ((1, 2),), 'constant', {}),
    ((), 2, 'constant', {}),
])
def test_pad(dtype, shape, pad_width, mode, kw, check_grads):
    x = numpy.asarray(numpy.random.uniform(-1, 1, shape), dtype=dtype)
    y = F.pad(x, pad_width, mode, **kw)
    expected = numpy.pad(x, pad_width, mode, **kw)
    assert y.dtype == dtype
    numpy.testing.assert_array_equal(y.array, expected)

    def f(x):
        return F.pad(x, pad_width, mode, **kw)
    gy = numpy.asarray(numpy.random.uniform(-1, 1, expected.shape), dtype=dtype)
    ggx = numpy.asarray(numpy.random.uniform(-1, 1, shape), dtype=dtype)
    check_grads(f, x, gy, ggx, dtype)


def test_pad_constant_grad_crops():
    gy = numpy.arange(20, dtype=numpy.float32).reshape(4, 5)
    x = minichainer.Variable(numpy.zeros((2, 2), numpy.float32))
    y = F.pad(x, ((1, 1), (2, 1)), 'constant')
    y.grad = gy
    y.backward()
    numpy.testing.assert_array_equal(x.grad, gy[1:3, 2:4])


def test_pad_int_rejected():
    with pytest.raises(type_check.InvalidType):
        F.pad(numpy.zeros((2, 3), numpy.int32), 1, 'constant')


@pytest.mark.parametrize('pad_width, mode', [
    (((2, 1), (1, 3)), 'edge'), (2, 'reflect'), (((1, 2), (3, 1)), 'symmetric'),
    (((4, 1), (0, 5)), 'wrap'), (1, 'mean'),
])
def test_pad_other_modes(pad_width, mode):
    # Forward as numpy.pad; the gradient crops the output gradient, as Chainer 7 does.
    x = minichainer.Variable(numpy.random.uniform(-1, 1, (3, 4)).astype(numpy.float32))
    y = F.pad(x, pad_width, mode)
    expected = numpy.pad(x.array, pad_width, mode)
    numpy.testing.assert_array_equal(y.array, expected)
    gy = numpy.random.uniform(-1, 1, expected.shape).astype(numpy.float32)
    y.grad = gy
    y.backward()
    widths = numpy.broadcast_to(numpy.asarray(pad_width).reshape(-1, 2)
                                if numpy.ndim(pad_width) else pad_width, (2, 2))
    (b0, _), (b1, _) = widths
    numpy.testing.assert_array_equal(x.grad, gy[b0:b0 + 3, b1:b1 + 4])
