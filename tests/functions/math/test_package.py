"""The math package exports Chainer's names, and Chainer-style module access works."""
import importlib
import sys

import numpy
import pytest

import minichainer.functions as F
import minichainer.functions.math as math_pkg

CHAINER_NAMES = [
    'absolute', 'arccos', 'arcsin', 'arctan', 'arctan2', 'argmax', 'argmin', 'average',
    'batch_det', 'batch_inv', 'batch_l2_norm_squared', 'batch_matmul', 'bias', 'ceil',
    'cholesky', 'clip', 'cos', 'cosh', 'cumprod', 'cumsum', 'det', 'digamma', 'einsum',
    'erf', 'erfc', 'erfcinv', 'erfcx', 'erfinv', 'exp', 'expm1', 'fft', 'fix', 'floor',
    'fmod', 'identity', 'ifft', 'inv', 'lgamma', 'linear_interpolate', 'log', 'log10',
    'log1p', 'log2', 'log_ndtr', 'logsumexp', 'matmul', 'max', 'maximum', 'mean', 'min',
    'minimum', 'ndtr', 'ndtri', 'polygamma', 'prod', 'rsqrt', 'scale', 'sign', 'sin',
    'sinh', 'sqrt', 'square', 'squared_difference', 'sum', 'tan', 'tensordot', 'zeta',
    'ArgMax', 'ArgMin', 'BatchDet', 'BatchInv', 'Clip', 'Cos', 'Cumsum', 'Exp', 'Log',
    'Max', 'Min', 'Maximum', 'Minimum', 'Prod', 'Sin', 'Sqrt', 'Tan', 'LogSumExp',
]


FUNCTION_NAMES = [n for n in CHAINER_NAMES if n[0].islower()]
CLASS_NAMES = [n for n in CHAINER_NAMES if n[0].isupper()]


@pytest.mark.parametrize('name', FUNCTION_NAMES)
def test_exported(name):
    assert callable(getattr(F, name))


@pytest.mark.parametrize('name', CLASS_NAMES)
def test_classes_live_in_their_modules(name):
    modules = [m for key, m in list(sys.modules.items())
               if key.startswith('minichainer.functions.math.') and hasattr(m, name)]
    assert modules, name


def test_mean_is_average():
    assert F.mean is F.average


@pytest.mark.parametrize('module,attr', [
    ('sum', 'Sum'), ('log_ndtr', 'log_ndtr'), ('einsum', 'DiagEinSum'),
    ('average', '_mean'), ('matmul', 'matmul'), ('inv', 'BatchInv'), ('bias', 'bias'),
])
def test_chainer_style_module_access(module, attr):
    # ``from chainer.functions.math import sum as sum_mod; sum_mod.Sum`` works: the
    # family package, like Chainer's, gives the module
    importlib.import_module('minichainer.functions.math.' + module)
    obj = getattr(importlib.import_module('minichainer.functions.math'), module)
    real = sys.modules['minichainer.functions.math.' + module]
    assert obj is real
    assert getattr(obj, attr) is not None


def test_module_style_call():
    from minichainer.functions.math import exponential, minmax
    x = numpy.array([1., 2.], numpy.float32)
    numpy.testing.assert_allclose(exponential.exp(x).array, numpy.exp(x))
    assert minmax.max(x).array == 2.
