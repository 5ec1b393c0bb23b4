"""Declarative function and link tests (`chainer.testing.FunctionTestCase` and friends).

Subclasses describe inputs, the computation and its expected result; the base classes run
forward, backward (numerical gradient check) and double-backward tests. Use them with
[`inject_backend_tests`][minichainer.testing.backend.inject_backend_tests], which passes the
`backend_config`.
"""
import contextlib
import io
import unittest

import numpy

from minichainer import backend
from minichainer import gradient_check
from minichainer import initializers
from minichainer.initializer import Initializer
from minichainer.link import Link
from minichainer.testing import array as array_module
from minichainer.variable import Variable


class _TestError(AssertionError):
    """Parent class of the errors raised by failing declarative tests."""

    @classmethod
    def check(cls, expr, message):
        if not expr:
            raise cls(message)

    @classmethod
    def fail(cls, message, exc=None):
        if exc is not None:
            raise cls('{}\n\n({}) {}'.format(message, type(exc).__name__, exc)) from exc
        raise cls(message)

    @classmethod
    @contextlib.contextmanager
    def raise_if_fail(cls, message, error_types=AssertionError):
        try:
            yield
        except error_types as e:
            cls.fail(message, e)


class FunctionTestError(_TestError):
    """Raised when the tested function is implemented incorrectly."""


class LinkTestError(_TestError):
    """Raised when the tested link is implemented incorrectly."""


def _check_is_initializer_like(initializer):
    if not (callable(initializer) or numpy.isscalar(initializer)
            or isinstance(initializer, backend.get_array_types())):
        raise TypeError('Initializer is of wrong type: {}. Allowed types are a callable, a '
                        'scalar and an ndarray.'.format(type(initializer).__name__))


class InitializerArgument:
    """A link-constructor initializer argument and the initializer it stands for.

    Used in `LinkInitializersTestCase.get_initializers` when the argument (e.g. None)
    is not itself the initializer the link uses.
    """

    def __init__(self, argument_value, expected_initializer):
        if expected_initializer is None:
            raise ValueError('Expected initialized cannot be None.')
        _check_is_initializer_like(expected_initializer)
        self.argument_value = argument_value
        self.expected_initializer = expected_initializer


def _format_array_props(arrays):
    return ', '.join('None' if a is None else '{}:{}'.format(a.shape, a.dtype)
                     for a in arrays)


def _array_types():
    return backend.get_array_types()  # NumPy, and CuPy while in use


def _cpu_device():
    return backend.CpuDevice()


class _DeclarativeTestMixin:
    """The parts shared by the function and link test bases.

    Subclasses set `_test_error` (the error class raised on a failed check) and
    `_nondifferentiable_message` (raised when no differentiable point is found).
    """

    contiguous = None

    def check_forward_outputs(self, outputs, expected_outputs):
        assert isinstance(outputs, tuple)
        assert isinstance(expected_outputs, tuple)
        assert all(isinstance(a, _array_types()) for a in outputs)
        assert all(isinstance(a, _array_types()) for a in expected_outputs)
        _check_arrays_equal(outputs, expected_outputs, self._test_error,
                            **self.check_forward_options)

    def _to_noncontiguous_as_needed(self, contig_arrays):
        if self.contiguous is None:
            return array_module._as_noncontiguous_array(contig_arrays)
        if self.contiguous == 'C':
            return contig_arrays
        raise ValueError('Invalid value of `contiguous`: {!r} (expected None or \'C\')'
                         .format(self.contiguous))

    def _to_test_device(self, cpu_arrays, backend_config):
        """Send `cpu_arrays` to the tested device, non-contiguous unless `'C'`."""
        return self._to_noncontiguous_as_needed(backend_config.get_array(cpu_arrays))

    def _generate_inputs(self):
        inputs = self.generate_inputs()
        _check_array_types(inputs, _cpu_device(), 'generate_inputs')
        return inputs

    def _generate_grad_outputs(self, outputs_template):
        grad_outputs = self.generate_grad_outputs(outputs_template)
        _check_array_types(grad_outputs, _cpu_device(), 'generate_grad_outputs')
        return grad_outputs

    def _repeat_if_nondifferentiable(self, do_check):
        """Run `do_check`; with `dodge_nondifferentiable`, retry on new inputs."""
        if not self.dodge_nondifferentiable:
            do_check()
            return
        for _ in range(1000):
            try:
                do_check()
            except gradient_check.NondifferentiableError:
                continue
            return
        raise self._test_error(self._nondifferentiable_message)


class FunctionTestBase(_DeclarativeTestMixin):
    """Test logic of [`FunctionTestCase`][minichainer.testing.function_link.FunctionTestCase]
    (without the `unittest` base)."""

    backend_config = None
    check_forward_options = None
    check_backward_options = None
    check_double_backward_options = None
    skip_forward_test = False
    skip_backward_test = False
    skip_double_backward_test = False
    dodge_nondifferentiable = False
    numerical_grad_dtype = numpy.float64
    _test_error = FunctionTestError
    _nondifferentiable_message = 'could not sample differentiable inputs in 1000 trials'

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.check_forward_options = {}
        self.check_backward_options = {}
        self.check_double_backward_options = {}

    def before_test(self, test_name):
        pass

    def forward(self, inputs, device):
        raise NotImplementedError('forward() is not implemented.')

    def forward_expected(self, inputs):
        raise NotImplementedError('forward_expected() is not implemented.')

    def generate_inputs(self):
        raise NotImplementedError('generate_inputs() is not implemented.')

    def generate_grad_outputs(self, outputs_template):
        return tuple(numpy.random.uniform(-1, 1, a.shape).astype(a.dtype)
                     for a in outputs_template)

    def generate_grad_grad_inputs(self, inputs_template):
        return tuple(numpy.random.uniform(-1, 1, a.shape).astype(a.dtype)
                     for a in inputs_template)

    def _generate_grad_grad_inputs(self, inputs_template):
        grad_grad_inputs = self.generate_grad_grad_inputs(inputs_template)
        _check_array_types(grad_grad_inputs, _cpu_device(), 'generate_grad_grad_inputs')
        return grad_grad_inputs

    def _forward_expected(self, inputs):
        outputs = self.forward_expected(inputs)
        _check_array_types(outputs, _cpu_device(), 'forward_expected')
        return outputs

    def _forward(self, inputs, backend_config):
        assert all(isinstance(a, Variable) for a in inputs)
        with backend_config:
            outputs = self.forward(inputs, backend_config.device)
        _check_variable_types(outputs, backend_config.device, 'forward', FunctionTestError)
        return outputs

    def _start_test(self, kind, backend_config):
        """Skip when `skip_<kind>_test` is set; else record the test and call
        `before_test('test_<kind>')`."""
        skip_attr = 'skip_{}_test'.format(kind)
        if getattr(self, skip_attr):
            raise unittest.SkipTest('{} is set'.format(skip_attr))
        self.backend_config = backend_config
        self.test_name = 'test_' + kind
        self.before_test(self.test_name)

    def run_test_forward(self, backend_config):
        """Check the outputs of `forward` against `forward_expected`; inputs unchanged."""
        self._start_test('forward', backend_config)

        cpu_inputs = self._generate_inputs()
        cpu_inputs = self._to_noncontiguous_as_needed(cpu_inputs)
        inputs_copied = [a.copy() for a in cpu_inputs]
        cpu_expected = self._forward_expected(cpu_inputs)

        inputs = self._to_test_device(cpu_inputs, backend_config)
        outputs = self._forward(
            tuple(Variable(a, requires_grad=a.dtype.kind == 'f') for a in inputs),
            backend_config)

        modified = []
        for i in range(len(inputs)):
            try:
                array_module.assert_allclose(inputs_copied[i], inputs[i], atol=0, rtol=0)
            except AssertionError:
                modified.append(i)
        if modified:
            f = io.StringIO()
            f.write('Input arrays have been modified during forward.\n'
                    'Indices of modified inputs: {}\n'
                    'Input array shapes and dtypes: {}\n'.format(
                        ', '.join(str(i) for i in modified), _format_array_props(inputs)))
            for i in modified:
                f.write('\nInput[{}]:\nOriginal:\n{}\nAfter forward:\n{}\n'.format(
                    i, inputs_copied[i], inputs[i]))
            FunctionTestError.fail(f.getvalue())

        self.check_forward_outputs(tuple(var.array for var in outputs), cpu_expected)

    def _generate_check_arrays(self, backend_config, double_backward=False):
        """The arrays of one gradient check, drawn in Chainer's order and sent to the tested
        device: inputs, output gradients and (for double backward) the float inputs'
        second-order gradients."""
        inputs = self._generate_inputs()
        outputs = self._forward_expected(inputs)
        arrays = [inputs, self._generate_grad_outputs(outputs)]
        if double_backward:
            grad_grad_inputs = self._generate_grad_grad_inputs(inputs)
            # second-order gradients of non-float inputs do not exist
            arrays.append([g for g in grad_grad_inputs if g is None or g.dtype.kind == 'f'])
        return [self._to_test_device(a, backend_config) for a in arrays]

    def run_test_backward(self, backend_config):
        """Check the gradients of `forward` numerically (`check_backward`)."""
        self._start_test('backward', backend_config)

        def f(*args):
            return self._forward(args, backend_config)

        def do_check():
            inputs, grad_outputs = self._generate_check_arrays(backend_config)
            with FunctionTestError.raise_if_fail('backward is not implemented correctly'):
                gradient_check.check_backward(
                    f, inputs, grad_outputs, dtype=self.numerical_grad_dtype,
                    detect_nondifferentiable=self.dodge_nondifferentiable,
                    **self.check_backward_options)

        self._repeat_if_nondifferentiable(do_check)

    def run_test_double_backward(self, backend_config):
        """Check second-order gradients numerically (`check_double_backward`)."""
        self._start_test('double_backward', backend_config)

        def f(*args):
            return self._forward(args, backend_config)

        def do_check():
            inputs, grad_outputs, grad_grad_inputs = self._generate_check_arrays(
                backend_config, double_backward=True)
            with backend_config:
                with FunctionTestError.raise_if_fail(
                        'double backward is not implemented correctly'):
                    gradient_check.check_double_backward(
                        f, inputs, grad_outputs, grad_grad_inputs,
                        dtype=self.numerical_grad_dtype,
                        detect_nondifferentiable=self.dodge_nondifferentiable,
                        **self.check_double_backward_options)

        self._repeat_if_nondifferentiable(do_check)


class FunctionTestCase(FunctionTestBase, unittest.TestCase):
    """Base class of declarative function tests.

    Override `generate_inputs()` (tuple of NumPy arrays), `forward(inputs, device)`
    (Variables in, tuple of Variables out) and `forward_expected(inputs)` (NumPy in,
    tuple of NumPy out). Optional: `before_test`, `generate_grad_outputs`,
    `generate_grad_grad_inputs`, `check_forward_outputs`; attributes
    `skip_{forward,backward,double_backward}_test`, `dodge_nondifferentiable`,
    `numerical_grad_dtype`, `contiguous` (None: non-contiguous inputs, or `'C'`)
    and the dicts `check_{forward,backward,double_backward}_options` (set in `setUp`).
    Decorate with `inject_backend_tests(None, [{}])`.
    """

    def test_forward(self, backend_config):
        """Tests forward computation."""
        self.run_test_forward(backend_config)

    def test_backward(self, backend_config):
        """Tests backward computation."""
        self.run_test_backward(backend_config)

    def test_double_backward(self, backend_config):
        """Tests double-backward computation."""
        self.run_test_double_backward(backend_config)


class _LinkTestBase(_DeclarativeTestMixin):

    backend_config = None
    param_names = ()
    _test_error = LinkTestError
    _nondifferentiable_message = 'could not sample a differentiable point in 1000 trials'

    def before_test(self, test_name):
        pass

    def generate_params(self):
        raise NotImplementedError('generate_params is not implemented.')

    def generate_inputs(self):
        raise NotImplementedError('generate_inputs is not implemented.')

    def create_link(self, initializers):
        raise NotImplementedError('create_link is not implemented.')

    def forward(self, link, inputs, device):
        outputs = link(*inputs)
        if not isinstance(outputs, tuple):
            outputs = outputs,
        return outputs

    def _generate_params(self):
        params_init = self.generate_params()
        if not isinstance(params_init, (tuple, list)):
            raise TypeError('`generate_params` must return a tuple or a list.')
        for init in params_init:
            _check_generated_initializer(init)
        return params_init

    def _create_link(self, initializers, backend_config):
        link = self.create_link(initializers)
        if not isinstance(link, Link):
            raise TypeError('`create_link` must return a chainer.Link object.')
        link.to_device(backend_config.device)
        return link

    def _create_initialized_link(self, inits, backend_config):
        inits = [_get_initializer_argument_value(i) for i in inits]
        link = self._create_link(inits, backend_config)
        inputs_np = self._generate_inputs()
        inputs_xp = self._to_test_device(inputs_np, backend_config)
        output_vars = self._forward(link, [Variable(i) for i in inputs_xp], backend_config)
        outputs_xp = [v.array for v in output_vars]
        link.cleargrads()
        return link, inputs_xp, outputs_xp

    def _forward(self, link, inputs, backend_config):
        assert all(isinstance(x, Variable) for x in inputs)
        with backend_config:
            outputs = self.forward(link, inputs, backend_config.device)
        _check_variable_types(outputs, backend_config.device, 'forward', LinkTestError)
        return outputs


class LinkTestCase(_LinkTestBase, unittest.TestCase):
    """Base class of declarative link forward/backward tests.

    Override `generate_params()` (initializer-likes), `create_link(initializers)`,
    `generate_inputs()` and `forward_expected(link, inputs)`; optionally `forward`,
    `before_test`, `generate_grad_outputs`, `check_forward_outputs`. `param_names`
    lists the parameters whose gradients are checked. Decorate with
    `inject_backend_tests`.
    """

    check_forward_options = None
    check_backward_options = None
    skip_forward_test = False
    skip_backward_test = False
    dodge_nondifferentiable = False
    numerical_grad_dtype = numpy.float64

    def __init__(self, *args, **kwargs):
        self.check_forward_options = {}
        self.check_backward_options = {}
        super().__init__(*args, **kwargs)

    def forward_expected(self, link, inputs):
        raise NotImplementedError('forward_expected() is not implemented.')

    def generate_grad_outputs(self, outputs_template):
        return tuple(numpy.random.uniform(-1, 1, a.shape).astype(a.dtype)
                     for a in outputs_template)

    def test_forward(self, backend_config):
        """Tests forward computation."""
        if self.skip_forward_test:
            raise unittest.SkipTest('skip_forward_test is set')
        self.backend_config = backend_config
        self.before_test('test_forward')

        inits = self._generate_params()
        link = self._create_link(inits, backend_config)
        inputs_np = self._generate_inputs()
        inputs_xp = self._to_test_device(inputs_np, backend_config)
        output_vars = self._forward(link, tuple(Variable(i) for i in inputs_xp),
                                    backend_config)
        outputs_xp = [v.array for v in output_vars]
        link.to_device(_cpu_device())
        expected_outputs_np = self._forward_expected(link, inputs_np)
        self.check_forward_outputs(tuple(outputs_xp), expected_outputs_np)

    def test_backward(self, backend_config):
        """Tests backward computation (inputs and the `param_names` parameters)."""
        if self.skip_backward_test:
            raise unittest.SkipTest('skip_backward_test is set')
        self.backend_config = backend_config
        self.before_test('test_backward')

        def do_check():
            inits = self._generate_params()
            link, inputs, outputs = self._create_initialized_link(inits, backend_config)
            params = [p.array for p in _get_link_params(link, self.param_names)]
            cpu = _cpu_device()
            outputs = [cpu.send(output) for output in outputs]
            grad_outputs = self._generate_grad_outputs(tuple(outputs))
            grad_outputs = self._to_test_device(grad_outputs, backend_config)
            inputs = self._to_noncontiguous_as_needed(inputs)

            forward_link, _, _ = self._create_initialized_link(inits, backend_config)
            forward_params = _get_link_params(forward_link, self.param_names)
            for p, value in zip(forward_params, params):
                p.array[...] = value

            def forward(*xs):
                return self._forward(forward_link, xs, backend_config)

            with LinkTestError.raise_if_fail('backward is not implemented correctly'):
                gradient_check.check_backward(
                    forward, tuple(inputs), grad_outputs, params=tuple(forward_params),
                    dtype=self.numerical_grad_dtype,
                    detect_nondifferentiable=self.dodge_nondifferentiable,
                    **self.check_backward_options)

        self._repeat_if_nondifferentiable(do_check)

    def _forward_expected(self, link, inputs):
        assert all(isinstance(x, numpy.ndarray) for x in inputs)
        outputs = self.forward_expected(link, inputs)
        _check_array_types(outputs, _cpu_device(), 'forward_expected')
        return outputs


class LinkInitializersTestCase(_LinkTestBase, unittest.TestCase):
    """Base class of declarative tests of a link's parameter initializers.

    Override `generate_params`, `create_link`, `generate_inputs` and
    `get_initializers()` (per constructor initializer argument, the initializer-likes to
    try; wrap non-initializer arguments such as None in
    [`InitializerArgument`][minichainer.testing.function_link.InitializerArgument]).
    """

    check_initializers_options = None

    def __init__(self, *args, **kwargs):
        self.check_initializers_options = {}
        super().__init__(*args, **kwargs)

    def get_initializers(self):
        raise NotImplementedError('get_initializers is not implemented.')

    def test_initializers(self, backend_config):
        """Tests that the parameters of a link are initialized as specified."""
        self.backend_config = backend_config
        self.before_test('test_initializers')
        for i_param, param_inits in enumerate(self._get_initializers()):
            inits = list(self._generate_params())
            for init in param_inits:
                inits[i_param] = init
                self._test_single_initializer(i_param, inits, backend_config)

    def _get_initializers(self):
        params_inits = self.get_initializers()
        if not isinstance(params_inits, (tuple, list)):
            raise TypeError('`get_initializers` must return a tuple or a list.')
        for param_inits in params_inits:
            if not isinstance(param_inits, (tuple, list)):
                raise TypeError('`get_initializers` must return a tuple or a list of tuples '
                                'or lists.')
            for init in param_inits:
                _check_generated_initializer(init)
        return params_inits

    def _test_single_initializer(self, i_param, inits, backend_config):
        inits_orig = inits
        inits = [_get_initializer_argument_value(i) for i in inits]
        link, _, _ = self._create_initialized_link(inits, backend_config)
        param = _get_link_params(link, self.param_names)[i_param]
        param_np = _cpu_device().send(param.array)
        expected_init = _get_expected_initializer(inits_orig[i_param])
        expected_np = numpy.empty_like(param_np)
        expected_init(expected_np)
        _check_arrays_equal((expected_np,), (param_np,), LinkTestError,
                            **self.check_initializers_options)


def _check_generated_initializer(init):
    if isinstance(init, InitializerArgument):
        init = init.expected_initializer
    elif init is None:
        raise ValueError('A None initializer must be wrapped in a InitializerArgument along '
                         'with the expected initializer fallen back to.')
    _check_is_initializer_like(init)


def _get_initializer_argument_value(init):
    if isinstance(init, InitializerArgument):
        return init.argument_value
    return init


def _get_expected_initializer(init):
    if isinstance(init, InitializerArgument):
        init = init.expected_initializer
    assert init is not None
    if not isinstance(init, Initializer):
        init = initializers.get_initializer(init)
    return init


def _get_link_params(link, param_names):
    params = []
    for name in param_names:
        param = getattr(link, name, None)
        if param is None:
            LinkTestError.fail('Link does not have a parameter named \'{}\'.'.format(name))
        params.append(param)
    return params


def _check_array_types(arrays, device, func_name):
    if not isinstance(arrays, tuple):
        raise TypeError('`{}()` must return a tuple, not {}.'.format(func_name, type(arrays)))
    if not all(a is None or isinstance(a, device.supported_array_types) for a in arrays):
        raise TypeError('{}() must return a tuple of arrays supported by device {} or None.\n'
                        'Actual: {}'.format(func_name, device,
                                            tuple(type(a) for a in arrays)))


def _check_variable_types(vars, device, func_name, test_error_cls):
    if not isinstance(vars, tuple):
        test_error_cls.fail('`{}()` must return a tuple, not {}.'.format(
            func_name, type(vars)))
    if not all(isinstance(a, Variable) for a in vars):
        test_error_cls.fail('{}() must return a tuple of Variables.\nActual: {}'.format(
            func_name, ', '.join(str(type(a)) for a in vars)))
    if not all(isinstance(a.array, device.supported_array_types) for a in vars):
        test_error_cls.fail(
            '{}() must return a tuple of Variables of arrays supported by device {}.\n'
            'Actual: {}'.format(func_name, device,
                                ', '.join(str(type(a.array)) for a in vars)))


def _check_arrays_equal(actual_arrays, expected_arrays, test_error_cls, **opts):
    message = None
    detail = None
    if len(actual_arrays) != len(expected_arrays):
        message = 'Number of outputs ({}, {}) does not match'.format(
            len(actual_arrays), len(expected_arrays))
    elif not all(y.shape == ye.shape and y.dtype == ye.dtype
                 for y, ye in zip(actual_arrays, expected_arrays)):
        message = 'Shapes and/or dtypes do not match'
    else:
        errors = []
        for i, (actual, expected) in enumerate(zip(actual_arrays, expected_arrays)):
            try:
                array_module.assert_allclose(actual, expected, **opts)
            except AssertionError as e:
                errors.append((i, e))
        if errors:
            message = ('Outputs do not match the expected values.\n'
                       'Indices of outputs that do not match: {}'.format(
                           ', '.join(str(i) for i, _ in errors)))
            detail = ''.join('Error details of output [{}]:\n{}\n'.format(i, e)
                             for i, e in errors)
    if message is not None:
        msg = '{}\nExpected shapes and dtypes: {}\nActual shapes and dtypes:   {}\n'.format(
            message, _format_array_props(expected_arrays),
            _format_array_props(actual_arrays))
        if detail is not None:
            msg += '\n\n' + detail
        test_error_cls.fail(msg)
