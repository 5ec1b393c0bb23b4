"""gradient_check on GPU arrays (the CuPy test double, or real CuPy on a GPU run): the
same checks as on the CPU, with the random direction drawn on the host."""
import numpy
import pytest

import minichainer
import minichainer.functions as F
import minichainer.links as L
from minichainer import gradient_check
from minichainer.backends import cuda


def _data(shape, seed=0):
    return numpy.random.RandomState(seed).uniform(-1, 1, shape).astype(numpy.float64)


def test_check_backward_cupy(cupy_device):
    x = cupy_device.send(_data((3, 4)))
    gy = cupy_device.send(_data((3, 4), 1))
    gradient_check.check_backward(F.tanh, x, gy)
    gradient_check.check_backward(lambda a, b: a * b, (x, cupy_device.send(_data((3, 4), 2))),
                                  gy)
    gradient_check.check_backward(F.sum, x, None)


def test_check_backward_cupy_with_params_and_int_input(cupy_device):
    link = L.Linear(4, 2).to_device(cupy_device)
    link.W.array = link.W.array.astype(numpy.float64)
    link.b.array = link.b.array.astype(numpy.float64)
    x = cupy_device.send(_data((3, 4)))
    gy = cupy_device.send(_data((3, 2), 1))
    gradient_check.check_backward(link, x, gy, params=(link.W, link.b))
    t = cupy_device.send(numpy.array([0, 1, 0], numpy.int32))
    gradient_check.check_backward(
        lambda a, b: F.softmax_cross_entropy(a, b), (x, t), None)


def test_check_double_backward_cupy(cupy_device):
    x = cupy_device.send(_data((2, 3)))
    gy = cupy_device.send(_data((2, 3), 1))
    ggx = cupy_device.send(_data((2, 3), 2))
    gradient_check.check_double_backward(lambda a: a * a * a, x, gy, ggx)


class _WrongSquare(minichainer.FunctionNode):
    def forward(self, inputs):
        self.retain_inputs((0,))
        return inputs[0] * inputs[0],

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return 3 * x * grad_outputs[0],  # should be 2 * x


def test_check_backward_cupy_detects_a_wrong_gradient(cupy_device):
    x = cupy_device.send(_data((4,)) + 2)
    gy = cupy_device.send(numpy.ones(4))
    with pytest.raises(AssertionError, match='check_backward failed'):
        gradient_check.check_backward(lambda a: _WrongSquare().apply((a,))[0], x, gy)


def test_numerical_grad_cupy_equals_cpu(cupy_device):
    h = _data((2, 2))
    d = cupy_device.send(h)
    gy_h = numpy.ones((2, 2))
    gy_d = cupy_device.send(gy_h)
    g_cpu, = gradient_check.numerical_grad(lambda: (h * h,), (h,), (gy_h,))
    g_gpu, = gradient_check.numerical_grad(lambda: (d * d,), (d,), (gy_d,))
    assert type(g_gpu) is cupy_device.xp.ndarray
    numpy.testing.assert_allclose(cuda.to_cpu(g_gpu), g_cpu, rtol=1e-7)
    numpy.testing.assert_allclose(g_cpu, 2 * h, rtol=1e-6)


def test_check_backward_rejects_other_types_cupy(cupy_device):
    with pytest.raises(TypeError, match='cupy.ndarray'):
        gradient_check.check_backward(F.tanh, [1.0, 2.0], None)


def test_testing_assert_allclose_and_noncontiguous_cupy(cupy_device):
    from minichainer import testing
    from minichainer.testing.array import _as_noncontiguous_array
    d = cupy_device.send(numpy.arange(6.0).reshape(2, 3))
    testing.assert_allclose(d, numpy.arange(6.0).reshape(2, 3))
    testing.assert_allclose(minichainer.Variable(d), d)
    with pytest.raises(AssertionError):
        testing.assert_allclose(d, numpy.zeros((2, 3)))
    nc = _as_noncontiguous_array(d)
    assert type(nc) is cupy_device.xp.ndarray and not nc.flags.c_contiguous
    testing.assert_allclose(nc, d)


def _test_case_classes():
    # defined here (not at module level) so that pytest does not collect them as tests
    class TanhTest(minichainer.testing.FunctionTestCase):
        dodge_nondifferentiable = True

        def setUp(self):
            self.check_backward_options = {'atol': 1e-4, 'rtol': 1e-3}
            self.check_double_backward_options = {'atol': 1e-3, 'rtol': 1e-2}

        def generate_inputs(self):
            return numpy.random.uniform(-1, 1, (3, 2)).astype(numpy.float64),

        def forward(self, inputs, device):
            return F.tanh(inputs[0]),

        def forward_expected(self, inputs):
            return numpy.tanh(inputs[0]),

    class LinearLinkTest(minichainer.testing.LinkTestCase):
        param_names = ('W', 'b')
        check_backward_options = {'atol': 1e-2, 'rtol': 1e-2}

        def generate_params(self):
            return (numpy.random.uniform(-1, 1, (2, 3)).astype(numpy.float32),
                    numpy.random.uniform(-1, 1, (2,)).astype(numpy.float32))

        def create_link(self, initializers):
            W, b = initializers
            return L.Linear(3, 2, initialW=W, initial_bias=b)

        def generate_inputs(self):
            return numpy.random.uniform(-1, 1, (4, 3)).astype(numpy.float32),

        def forward_expected(self, link, inputs):
            W, b = link.W.array, link.b.array
            return (inputs[0].dot(W.T) + b).astype(numpy.float32),

    return TanhTest, LinearLinkTest


def test_function_and_link_test_cases_on_a_cupy_backend_config(cupy_device):
    config = minichainer.testing.BackendConfig({'use_cuda': True})
    assert config.is_available and config.device == cupy_device
    assert config.xp is cupy_device.xp
    tanh_test, linear_test = _test_case_classes()
    case = tanh_test('test_forward')
    case.setUp()
    case.test_forward(config)
    case.test_backward(config)
    case.test_double_backward(config)
    link_case = linear_test('test_forward')
    link_case.test_forward(config)
    link_case.test_backward(config)
