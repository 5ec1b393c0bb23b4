"""Lazy SciPy access for the functions that need it (SciPy is optional); on CuPy arrays,
`cupyx.scipy.special`."""
import numpy


def _scipy_special(fname):
    try:
        from scipy import special
    except ImportError:
        raise ImportError(
            '{}: SciPy is required for this function on the CPU (as in Chainer); '
            'install it with pip install scipy'.format(fname)) from None
    return special


def special_for(x, fname):
    """The special-function module for array `x`: `scipy.special` for NumPy arrays (an
    ImportError naming `fname` without SciPy), `cupyx.scipy.special` for CuPy arrays."""
    if isinstance(x, numpy.ndarray) or numpy.isscalar(x):
        return _scipy_special(fname)
    from minichainer.backends import cuda
    return cuda.cupyx.scipy.special
