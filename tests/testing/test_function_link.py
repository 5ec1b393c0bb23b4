"""FunctionTestCase / LinkTestCase / LinkInitializersTestCase / unary_math_function_unittest,
used as Chainer's own test suite uses them."""
import unittest

import numpy
import pytest

import minichainer
import minichainer.functions as F
import minichainer.links as L
from minichainer import initializers
from minichainer import testing
from minichainer.testing import function_link


_BACKENDS = [{}, {'use_cuda': True}, {'use_chainerx': True, 'chainerx_device': 'native:0'},
             {'use_ideep': 'always'}]


@testing.parameterize(*testing.product({'shape': [(3, 2), ()]}))
@testing.inject_backend_tests(None, _BACKENDS)
class TestTanhFunction(testing.FunctionTestCase):

    def setUp(self):
        self.check_backward_options = {'atol': 1e-4, 'rtol': 1e-3}
        self.check_double_backward_options = {'atol': 1e-4, 'rtol': 1e-3}

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.shape).astype(numpy.float32),

    def forward(self, inputs, device):
        x, = inputs
        # the configuration's device: the CPU, or @cupy:0 where a GPU is usable
        assert device == self.backend_config.device
        return F.tanh(x),

    def forward_expected(self, inputs):
        x, = inputs
        return minichainer.utils.force_array(numpy.tanh(x)),


@testing.inject_backend_tests(['test_forward', 'test_backward'], [{}])
class TestReluDodge(testing.FunctionTestCase):
    dodge_nondifferentiable = True
    skip_double_backward_test = True

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, (4,)).astype(numpy.float64),

    def forward(self, inputs, device):
        return F.relu(inputs[0]),

    def forward_expected(self, inputs):
        return numpy.maximum(inputs[0], 0),


@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestLinearLink(testing.LinkTestCase):
    param_names = ('W', 'b')

    def setUp(self):
        self.check_backward_options = {'atol': 1e-4, 'rtol': 1e-3}

    def generate_params(self):
        W = numpy.random.uniform(-1, 1, (3, 2)).astype(numpy.float32)
        b = numpy.random.uniform(-1, 1, (3,)).astype(numpy.float32)
        return W, b

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, (4, 2)).astype(numpy.float32),

    def create_link(self, initializers):
        W, b = initializers
        return L.Linear(2, 3, initialW=W, initial_bias=b)

    def forward_expected(self, link, inputs):
        x, = inputs
        return x.dot(link.W.array.T) + link.b.array,


@testing.inject_backend_tests(None, [{}])
class TestLinearInitializers(testing.LinkInitializersTestCase):
    param_names = ('W', 'b')

    def generate_params(self):
        return initializers.Constant(0.5), initializers.Constant(0.25)

    def generate_inputs(self):
        return numpy.ones((1, 2), numpy.float32),

    def create_link(self, initializers):
        W, b = initializers
        return L.Linear(2, 3, initialW=W, initial_bias=b)

    def get_initializers(self):
        return ([initializers.Constant(1), 2],
                [initializers.Constant(2), 3,
                 testing.InitializerArgument(None, 0)])


@testing.unary_math_function_unittest(F.sin)
class TestSin(unittest.TestCase):
    pass


def _generated(name_prefix):
    return sorted(k for k in globals() if k.startswith(name_prefix))


def test_generated_class_names_follow_chainer():
    names = _generated('TestTanhFunction_')
    # 2 parameter sets x 4 backends, named {Base}_{backend}_param_{i}_{...}
    assert len(names) == 8
    # the decorated name is the bundle, not a collectable test class
    assert not isinstance(globals()['TestTanhFunction'], type)
    cpu = [n for n in names if 'use_cuda_false' in n and 'use_chainerx_false' in n
           and 'use_ideep_never' in n]
    assert len(cpu) == 2
    assert all('_param_' in n for n in names)
    assert len(_generated('TestSin_param_')) == 6


def test_restricted_method_names_drop_other_tests():
    names = _generated('TestReluDodge_')
    assert len(names) == 1
    cls = globals()[names[0]]
    # test_double_backward was not listed: not callable on the generated class
    assert not callable(getattr(cls, 'test_double_backward'))


def _run(case_cls):
    suite = unittest.defaultTestLoader.loadTestsFromTestCase(case_cls)
    result = unittest.TestResult()
    suite.run(result)
    return result


def test_gpu_backend_configurations_are_skipped():
    gpu = [globals()[n] for n in _generated('TestLinearLink_') if 'use_cuda_true' in n]
    assert len(gpu) == 1
    marks = [m.name for m in getattr(gpu[0].test_forward, 'pytestmark', [])]
    assert 'gpu' in marks
    if 'skip' not in marks:
        pytest.skip('a GPU was usable when the tests were generated: they run as gpu tests')
    result = _run(gpu[0])
    assert result.testsRun == 2
    assert len(result.skipped) == 2 and not result.failures and not result.errors


class _BadTanh(function_link.FunctionTestBase):
    # forward_expected disagrees with forward
    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, (3,)).astype(numpy.float32),

    def forward(self, inputs, device):
        return F.tanh(inputs[0]),

    def forward_expected(self, inputs):
        return numpy.tanh(inputs[0]) + 1,


def test_wrong_forward_expected_raises_function_test_error():
    case = _BadTanh()
    with pytest.raises(testing.FunctionTestError, match='do not match'):
        case.run_test_forward(testing.BackendConfig({}))


class _WrongGradFunction(minichainer.FunctionNode):
    def forward(self, inputs):
        return inputs[0] * 2,

    def backward(self, indexes, grad_outputs):
        return grad_outputs[0] * 3,


class _BadBackward(function_link.FunctionTestBase):
    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, (3,)).astype(numpy.float64),

    def forward(self, inputs, device):
        return _WrongGradFunction().apply(inputs)

    def forward_expected(self, inputs):
        return inputs[0] * 2,


def test_wrong_backward_raises_function_test_error():
    case = _BadBackward()
    with pytest.raises(testing.FunctionTestError, match='backward is not implemented'):
        case.run_test_backward(testing.BackendConfig({}))


class _ModifiesInput(_BadTanh):
    def forward(self, inputs, device):
        inputs[0].array[...] = 0
        return F.tanh(inputs[0]),

    def forward_expected(self, inputs):
        return numpy.tanh(numpy.zeros_like(inputs[0])),


def test_forward_modifying_inputs_is_reported():
    with pytest.raises(testing.FunctionTestError, match='modified during forward'):
        _ModifiesInput().run_test_forward(testing.BackendConfig({}))


def test_initializer_argument_rejects_none():
    with pytest.raises(ValueError):
        testing.InitializerArgument(None, None)


class _Square(minichainer.FunctionNode):
    """y = x ** 2 whose second-order gradient is wrong when ``bad_double`` is set."""

    def __init__(self, bad_double=False, seen=None):
        self.bad_double = bad_double
        self.seen = seen

    def forward(self, inputs):
        x, = inputs
        if self.seen is not None:
            self.seen.append((x.flags.c_contiguous, x.flags.f_contiguous))
        self.retain_inputs((0,))
        return x * x,

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        gy, = grad_outputs
        if self.bad_double:
            return gy * 2 * x.array,  # a constant: its own gradient is lost
        return gy * 2 * x,


class _SquareCase(function_link.FunctionTestBase):
    kwargs = {}

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, (3, 2)).astype(numpy.float64),

    def forward(self, inputs, device):
        return _Square(**self.kwargs).apply(inputs)

    def forward_expected(self, inputs):
        return inputs[0] ** 2,


def test_correct_double_backward_passes_and_wrong_one_fails():
    _SquareCase().run_test_double_backward(testing.BackendConfig({}))

    class Bad(_SquareCase):
        kwargs = {'bad_double': True}
    with pytest.raises(testing.FunctionTestError, match='double backward'):
        Bad().run_test_double_backward(testing.BackendConfig({}))


@pytest.mark.parametrize('contiguous,expected', [(None, (False, False)), ('C', (True, False))])
def test_inputs_contiguousness(contiguous, expected):
    seen = []

    class Case(_SquareCase):
        kwargs = {'seen': seen}
    Case.contiguous = contiguous
    Case().run_test_forward(testing.BackendConfig({}))
    assert seen == [expected]


class _ScaleLink(minichainer.Link):
    def __init__(self, initial_p, wrong_param_grad=False):
        super().__init__()
        with self.init_scope():
            self.p = minichainer.Parameter(initial_p, shape=(3,))
        self.wrong_param_grad = wrong_param_grad

    def forward(self, x):
        if self.wrong_param_grad:
            # the gradient w.r.t. p never arrives: p enters as a constant
            return x * minichainer.Variable(self.p.array)
        return x * F.broadcast_to(self.p, x.shape)


class _ScaleLinkCase(testing.LinkTestCase):
    __test__ = False  # a template; the tests below instantiate it directly
    param_names = ('p',)
    wrong = False

    def setUp(self):
        self.check_backward_options = {'atol': 1e-3, 'rtol': 1e-3}

    def generate_params(self):
        return numpy.random.uniform(-1, 1, (3,)).astype(numpy.float32),

    def create_link(self, initializers):
        return _ScaleLink(initializers[0], self.wrong)

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, (2, 3)).astype(numpy.float32),

    def forward_expected(self, link, inputs):
        return inputs[0] * link.p.array,


def _run_case(cls, name):
    case = cls(name)
    case.setUp()
    getattr(case, name)(testing.BackendConfig({}))


def test_link_case_detects_a_wrong_parameter_gradient():
    _run_case(_ScaleLinkCase, 'test_backward')
    _run_case(_ScaleLinkCase, 'test_forward')

    class Wrong(_ScaleLinkCase):
        wrong = True
    with pytest.raises(testing.LinkTestError, match='backward'):
        _run_case(Wrong, 'test_backward')


def test_link_case_rejects_bad_create_link_and_initializers():
    class NotALink(_ScaleLinkCase):
        def create_link(self, initializers):
            return numpy.array([1])
    with pytest.raises(TypeError, match='chainer.Link'):
        _run_case(NotALink, 'test_forward')

    class VariableInit(_ScaleLinkCase):
        def generate_params(self):
            return minichainer.Variable(numpy.ones(3)),
    with pytest.raises(TypeError, match='Initializer'):
        _run_case(VariableInit, 'test_forward')


def test_link_initializers_case_detects_ignored_initializer():
    class IgnoresInit(testing.LinkInitializersTestCase):
        param_names = ('p',)

        def generate_params(self):
            return initializers.Constant(3),

        def create_link(self, inits):
            return _ScaleLink(initializers.Constant(0))

        def generate_inputs(self):
            return numpy.ones((1, 3), numpy.float32),

        def get_initializers(self):
            return [initializers.Constant(1)],
    with pytest.raises(testing.LinkTestError, match='do not match'):
        IgnoresInit('test_initializers').test_initializers(testing.BackendConfig({}))
