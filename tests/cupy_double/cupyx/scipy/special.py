"""`cupyx.scipy.special` of the CuPy test double: SciPy's ufuncs over device arrays
(CuPy 14's names only; empty when SciPy is not installed)."""
from ...cupy._core import ufunc as _ufunc

_NAMES = (
    'i0 i0e i1 i1e j0 j1 k0 k0e k1 k1e y0 y1 yn spherical_yn bdtr bdtrc bdtri btdtr btdtri '
    'fdtr fdtrc fdtri gdtr gdtrc nbdtr nbdtrc nbdtri pdtr pdtrc pdtri chdtr chdtrc chdtri '
    'ndtr log_ndtr ndtri logit expit log_expit boxcox boxcox1p inv_boxcox inv_boxcox1p entr '
    'huber kl_div pseudo_huber rel_entr gamma gammaln loggamma gammasgn gammainc gammaincinv '
    'gammaincc gammainccinv beta betaln betainc betaincinv psi rgamma poch erf erfc erfcx '
    'erfinv erfcinv lpmv binom exp1 expi expn zetac cbrt exp10 exp2 radian cosdg sindg tandg '
    'cotdg log1p expm1 exprel cosm1 round xlogy xlog1py ellipk ellipkm1 ellipj ellipkinc '
    'ellipeinc').split()

UFUNCS = {}
try:
    import numpy as _numpy
    import scipy.special as _sp
except ImportError:  # pragma: no cover
    _sp = None
if _sp is not None:
    for _n in _NAMES:
        _f = getattr(_sp, _n, None)
        if isinstance(_f, _numpy.ufunc):
            globals()[_n] = UFUNCS[_n] = UFUNCS.setdefault(_f.__name__, _ufunc(_f, _n))


def _wrap(name):
    from ...cupy import _namespace
    f = getattr(_sp, name)
    return _namespace.wrap_function(f, name)


if _sp is not None:
    for _n in ('polygamma', 'digamma', 'zeta', 'multigammaln', 'logsumexp', 'softmax',
               'log_softmax', 'sinc'):
        if _n not in globals() and hasattr(_sp, _n):
            _f = getattr(_sp, _n)
            globals()[_n] = UFUNCS[_n] = (_ufunc(_f, _n) if isinstance(_f, _numpy.ufunc)
                                         else _wrap(_n))
