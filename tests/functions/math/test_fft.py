import numpy
import pytest

import minichainer.functions as F
from minichainer.utils import type_check

from _math_helpers import FLOAT_DTYPES, check_grads, fwd_tol, uniform


@pytest.mark.parametrize('dtype', FLOAT_DTYPES)
@pytest.mark.parametrize('method', ['fft', 'ifft'])
def test_fft(method, dtype):
    func = getattr(F, method)
    r = uniform((2, 5), dtype, seed=0)
    i = uniform((2, 5), dtype, seed=1)
    yr, yi = func((r, i))
    expect = getattr(numpy.fft, method)(r.astype(numpy.float64) + 1j * i)
    assert yr.dtype == dtype and yi.dtype == dtype
    tol = fwd_tol(dtype) if dtype != numpy.float16 else {'atol': 1e-2, 'rtol': 1e-2}
    numpy.testing.assert_allclose(yr.array, expect.real, **tol)
    numpy.testing.assert_allclose(yi.array, expect.imag, **tol)

    def f(a, b):
        yr, yi = func((a, b))
        return yr * yi
    check_grads(f, (r, i), dtype)


def test_fft_one_output_used():
    import minichainer
    r = minichainer.Variable(numpy.array([1., 2., 3.]))
    i = minichainer.Variable(numpy.zeros(3))
    yr, _ = F.fft((r, i))
    F.sum(yr).backward()
    # sum(real(fft(x))) = n * x[0] for real x
    numpy.testing.assert_allclose(r.grad, [3., 0., 0.], atol=1e-12)


def test_fft_errors():
    with pytest.raises(type_check.InvalidType):
        F.fft((numpy.ones(3, numpy.float32), numpy.ones(4, numpy.float32)))
    with pytest.raises(type_check.InvalidType):
        F.fft((numpy.array(1., numpy.float32), numpy.array(1., numpy.float32)))
