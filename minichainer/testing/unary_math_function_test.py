"""`unary_math_function_unittest`: ready-made tests of an elementwise unary function."""
import unittest
import warnings

import numpy

from minichainer import function
from minichainer import functions
from minichainer import gradient_check
from minichainer import variable
from minichainer.backends import cuda
from minichainer.testing import array as array_module
from minichainer.testing import attr
from minichainer.testing import parameterized


def is_available():
    return attr.is_available()


def check_available():
    attr.check_available()


def _is_old_style(func):
    return isinstance(func, function.Function)


def _func_name(func):
    if _is_old_style(func):
        return type(func).__name__.lower()
    return func.__name__


def _func_class(func):
    if _is_old_style(func):
        return type(func)
    return getattr(functions, func.__name__.capitalize(), None)


def _make_data_default(shape, dtype):
    x = numpy.random.uniform(-1, 1, shape).astype(dtype, copy=False)
    gy = numpy.random.uniform(-1, 1, shape).astype(dtype, copy=False)
    ggx = numpy.random.uniform(-1, 1, shape).astype(dtype, copy=False)
    return x, gy, ggx


def _nonlinear(func):
    def aux(x):
        y = func(x)
        return y * y
    return aux


def unary_math_function_unittest(func, func_expected=None, label_expected=None,
                                 make_data=None, is_linear=None, forward_options=None,
                                 backward_options=None, double_backward_options=None):
    """Class decorator adding forward/backward/double-backward tests of `func`.

    The tests run for shapes `(3, 2)` and `()` and dtypes float16/32/64 (via
    [`parameterize`][minichainer.testing.parameterized.parameterize]); `func_expected` defaults to
    the NumPy function of the same name. GPU variants are generated and skipped.

    Args:
        func: a function such as `F.sin` (or an old-style `Function` instance).
        func_expected: reference implementation taking `(x, dtype=...)`.
        label_expected (str): expected `label` of the function class.
        make_data: `make_data(shape, dtype)` returning `(x, gy, ggx)`
            (`(x, gy)` for an old-style Function).
        is_linear: deprecated; wrap `func` as `func(x) ** 2` for double backward.
        forward_options, backward_options, double_backward_options (dict): tolerances
            overriding the presets.
    """
    check_available()

    is_new_style = not _is_old_style(func)
    func_name = _func_name(func)
    func_class = _func_class(func)
    if func_expected is None:
        try:
            func_expected = getattr(numpy, func_name)
        except AttributeError:
            raise ValueError('NumPy has no functions corresponding to Chainer function '
                             '\'{}\'.'.format(func_name)) from None
    if label_expected is None:
        label_expected = func_name
    elif func_class is None:
        raise ValueError('Expected label is given even though Chainer function does not '
                         'have its label.')
    if make_data is None:
        if is_new_style:
            make_data = _make_data_default
        else:
            def make_data(shape, dtype):
                return _make_data_default(shape, dtype)[0:2]
    if is_linear is not None:
        warnings.warn('is_linear option is deprecated', DeprecationWarning)

    def decorate(klass):
        if not issubclass(klass, unittest.TestCase):
            raise TypeError('unary_math_function_unittest: the decorated class must be a '
                            'unittest.TestCase, got {!r}'.format(klass))

        def setUp(self):
            if is_new_style:
                self.x, self.gy, self.ggx = make_data(self.shape, self.dtype)
            else:
                self.x, self.gy = make_data(self.shape, self.dtype)
            if self.dtype == numpy.float16:
                eps16 = float(numpy.finfo('float16').eps)
                self.forward_options = {'atol': eps16, 'rtol': eps16}
                self.backward_options = {'eps': 2 ** -4, 'atol': 2 ** -4, 'rtol': 2 ** -4,
                                         'dtype': numpy.float64}
                self.double_backward_options = dict(self.backward_options)
            else:
                self.forward_options = {'atol': 1e-4, 'rtol': 1e-4}
                self.backward_options = {'dtype': numpy.float64, 'atol': 1e-4, 'rtol': 1e-4}
                self.double_backward_options = dict(self.backward_options)
            if forward_options is not None:
                self.forward_options.update(forward_options)
            if backward_options is not None:
                self.backward_options.update(backward_options)
            if double_backward_options is not None:
                self.double_backward_options.update(double_backward_options)
        klass.setUp = setUp

        def check_forward(self, x_data):
            x = variable.Variable(x_data)
            y = func(x)
            self.assertEqual(y.data.dtype, x_data.dtype)
            y_expected = func_expected(cuda.to_cpu(x_data), dtype=x_data.dtype)
            array_module.assert_allclose(y_expected, y.data, **self.forward_options)
        klass.check_forward = check_forward

        def test_forward_cpu(self):
            self.check_forward(self.x)
        klass.test_forward_cpu = test_forward_cpu

        @attr.gpu
        def test_forward_gpu(self):
            self.check_forward(cuda.to_gpu(self.x))
        klass.test_forward_gpu = test_forward_gpu

        def check_backward(self, x_data, y_grad):
            gradient_check.check_backward(func, x_data, y_grad,
                                                      **self.backward_options)
        klass.check_backward = check_backward

        def test_backward_cpu(self):
            self.check_backward(self.x, self.gy)
        klass.test_backward_cpu = test_backward_cpu

        @attr.gpu
        def test_backward_gpu(self):
            self.check_backward(cuda.to_gpu(self.x), cuda.to_gpu(self.gy))
        klass.test_backward_gpu = test_backward_gpu

        if is_new_style:
            def check_double_backward(self, x_data, y_grad, x_grad_grad):
                func1 = _nonlinear(func) if is_linear else func
                gradient_check.check_double_backward(
                    func1, x_data, y_grad, x_grad_grad, **self.double_backward_options)
            klass.check_double_backward = check_double_backward

            def test_double_backward_cpu(self):
                self.check_double_backward(self.x, self.gy, self.ggx)
            klass.test_double_backward_cpu = test_double_backward_cpu

            @attr.gpu
            def test_double_backward_gpu(self):
                self.check_double_backward(cuda.to_gpu(self.x), cuda.to_gpu(self.gy),
                                           cuda.to_gpu(self.ggx))
            klass.test_double_backward_gpu = test_double_backward_gpu

        if func_class is not None:
            def test_label(self):
                self.assertEqual(func_class().label, label_expected)
            klass.test_label = test_label

        return parameterized.parameterize(*parameterized.product({
            'shape': [(3, 2), ()],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }))(klass)
    return decorate
