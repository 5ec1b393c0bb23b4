"""`fft` and `ifft` on `(real, imag)` pairs."""
from minichainer import backend
from minichainer import function_node
from minichainer.utils import type_check


class FFT(function_node.FunctionNode):
    """One-dimensional (inverse) discrete Fourier transform over the last axis."""

    def __init__(self, method):
        self._method = method

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('real', 'imag'))
        r_type, i_type = in_types
        type_check.expect(
            r_type.dtype.kind == 'f',
            r_type.ndim > 0,
            r_type.shape == i_type.shape,
            r_type.dtype == i_type.dtype,
        )

    def forward(self, inputs):
        real, imag = inputs
        xp = backend.get_array_module(real)
        y = getattr(xp.fft, self._method)(real + imag * 1j)
        return y.real.astype(real.dtype), y.imag.astype(imag.dtype)

    def backward(self, indexes, grad_outputs):
        gr, gi = grad_outputs
        # The adjoint of the (symmetric) DFT matrix is its conjugate:
        # conj(M) g = conj(M conj(g)), computed by the same transform of
        # (gi, gr) with the parts swapped back.
        if gr is None or gi is None:
            xp = backend.get_array_module((gr if gr is not None else gi).array)
            zeros = xp.zeros(self.inputs[0].shape, self.inputs[0].dtype)
            gr = zeros if gr is None else gr
            gi = zeros if gi is None else gi
        gxi, gxr = FFT(self._method).apply((gi, gr))
        return gxr, gxi


def fft(x):
    """Fast Fourier transform over the last axis.

    Args:
        x (tuple): `(real, imag)` Variables or arrays of one shape and dtype.

    Returns:
        tuple: `(real, imag)` of the transform.
    """
    real, imag = x
    return FFT('fft').apply((real, imag))


def ifft(x):
    """Inverse fast Fourier transform over the last axis (see
    [`fft`][minichainer.functions.math.fft.fft])."""
    real, imag = x
    return FFT('ifft').apply((real, imag))
