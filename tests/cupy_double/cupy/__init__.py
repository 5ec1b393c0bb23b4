"""The CuPy test double's `cupy` module (installed as `sys.modules['cupy']` by
`cupy_double.install()`; see `cupy_double` and /docs/gpu.md for what it checks)."""
import types as _types

import numpy as _numpy

from . import _core  # noqa: F401
from . import _namespace
from . import cuda  # noqa: F401
from . import random  # noqa: F401
from ._core import ndarray  # noqa: F401
from ._core import ufunc  # noqa: F401

__version__ = '14.0.0+cupy_double'
is_cupy_double = True

globals().update(_namespace.NAMESPACE)


def _submodule(name, np_mod, names):
    m = _types.ModuleType('cupy.' + name)
    for n in names:
        obj = getattr(np_mod, n, None)
        if obj is None:
            continue
        if isinstance(obj, type):
            setattr(m, n, obj)
        else:
            setattr(m, n, _namespace.wrap_function(obj, n))
    return m


linalg = _submodule('linalg', _numpy.linalg, (
    'matrix_power', 'cross', 'cholesky', 'qr', 'svd', 'eigh', 'eig', 'eigvalsh', 'eigvals',
    'norm', 'cond', 'det', 'matrix_rank', 'slogdet', 'solve', 'tensorsolve', 'lstsq', 'inv',
    'pinv', 'tensorinv', 'LinAlgError'))
fft = _submodule('fft', _numpy.fft, (
    'fft', 'fft2', 'fftfreq', 'fftn', 'fftshift', 'hfft', 'ifft', 'ifft2', 'ifftn',
    'ifftshift', 'ihfft', 'irfft', 'irfft2', 'irfftn', 'rfft', 'rfft2', 'rfftfreq', 'rfftn'))


def _lib_module():
    m = _types.ModuleType('cupy.lib')
    st = _types.ModuleType('cupy.lib.stride_tricks')

    def as_strided(x, shape=None, strides=None):
        if type(x) is not ndarray:
            raise TypeError('as_strided: x must be a cupy.ndarray, got {}'.format(type(x)))
        return _core._view(_numpy.lib.stride_tricks.as_strided(x._a, shape, strides), x._dev)

    def sliding_window_view(x, window_shape, axis=None, *, subok=False, writeable=False):
        if type(x) is not ndarray:
            raise TypeError('sliding_window_view: x must be a cupy.ndarray')
        return _core._view(_numpy.lib.stride_tricks.sliding_window_view(
            x._a, window_shape, axis, writeable=writeable), x._dev)
    st.as_strided = as_strided
    st.sliding_window_view = sliding_window_view
    m.stride_tricks = st
    return m


lib = _lib_module()


def _testing_module():
    m = _types.ModuleType('cupy.testing')

    def host(x):
        return x.get() if type(x) is ndarray else x

    def make(name):
        f = getattr(_numpy.testing, name)

        def g(actual, desired, *args, **kwargs):
            return f(host(actual), host(desired), *args, **kwargs)
        g.__name__ = name
        return g
    for name in ('assert_allclose', 'assert_array_equal', 'assert_array_almost_equal',
                 'assert_array_less', 'assert_array_max_ulp'):
        setattr(m, name, make(name))
    return m


testing = _testing_module()
