"""Lazy SciPy access for the functions that need it (SciPy is optional)."""


def _scipy_special(fname):
    try:
        from scipy import special
    except ImportError:
        raise ImportError(
            '{}: SciPy is required for this function on the CPU (as in Chainer); '
            'install it with pip install scipy'.format(fname)) from None
    return special
