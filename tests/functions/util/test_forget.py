import numpy
import pytest

import minichainer
import minichainer.functions as F
from minichainer import gradient_check


def _f(x, y):
    return F.tanh(x) * y + x


def test_forget_matches_direct_gradients():
    rng = numpy.random.RandomState(0)
    xa, ya, gy = (rng.uniform(-1, 1, (3, 4)) for _ in range(3))
    x, y = minichainer.Variable(xa), minichainer.Variable(ya)
    z = F.forget(_f, x, y)
    numpy.testing.assert_allclose(z.array, _f(xa, ya).array)
    assert z.creator is not None
    z.grad = gy
    z.backward()
    x2, y2 = minichainer.Variable(xa), minichainer.Variable(ya)
    z2 = _f(x2, y2)
    z2.grad = gy
    z2.backward()
    numpy.testing.assert_allclose(x.grad, x2.grad)
    numpy.testing.assert_allclose(y.grad, y2.grad)
    gradient_check.check_backward(lambda x, y: F.forget(_f, x, y), (xa, ya), gy,
                                  atol=1e-7, rtol=1e-7)


def test_forget_multiple_outputs_and_unused_output():
    rng = numpy.random.RandomState(1)
    xa = rng.uniform(-1, 1, (2, 3))
    x = minichainer.Variable(xa)
    a, b = F.forget(lambda x: (x * 2, F.sigmoid(x)), x)
    F.sum(b).backward()
    s = 1 / (1 + numpy.exp(-xa))
    numpy.testing.assert_allclose(x.grad, s * (1 - s))


def test_forget_wraps_arrays():
    z = F.forget(lambda x: x * 3, numpy.ones(2, numpy.float32))
    assert isinstance(z, minichainer.Variable)
    numpy.testing.assert_array_equal(z.array, [3, 3])


def test_forget_errors():
    with pytest.raises(TypeError):
        F.forget(3, numpy.ones(2))
    with pytest.raises(RuntimeError):
        F.forget(lambda x: x.array, numpy.ones(2))
    with pytest.raises(RuntimeError):
        F.forget(lambda x: (x, 1), numpy.ones(2))


def test_forget_rejects_double_backprop():
    x = minichainer.Variable(numpy.ones((2,)))
    z = F.forget(lambda x: x * x, x)
    with pytest.raises(RuntimeError):
        F.sum(z).backward(enable_double_backprop=True)


def test_forget_accumulates_parameter_grads():
    W = minichainer.Parameter(numpy.array([[1., 2.], [3., 4.]]))
    x = minichainer.Variable(numpy.array([[1., -1.]]))
    y = F.forget(lambda x: F.matmul(x, W), x)
    F.sum(y).backward()
    numpy.testing.assert_allclose(W.grad, [[1., 1.], [-1., -1.]])
    numpy.testing.assert_allclose(x.grad, [[3., 7.]])


def test_forget_identity_function():
    x = minichainer.Variable(numpy.array([1., 2.]))
    y = F.forget(lambda v: v, x)
    y.grad = numpy.array([3., 4.])
    y.backward()
    numpy.testing.assert_allclose(x.grad, [3., 4.])


@pytest.mark.parametrize('n', [1, 2, 3, 4, 11, 12, 13, 21])
def test_forget_error_names_position(n):
    v = minichainer.Variable(numpy.zeros(1))
    suffix = {1: 'st', 2: 'nd', 3: 'rd'}.get(n if n < 20 else n % 10, 'th')
    with pytest.raises(RuntimeError, match='{}{}.*int'.format(n, suffix)):
        F.forget(lambda: (v,) * (n - 1) + (1,))
