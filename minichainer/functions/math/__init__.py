"""Mathematical functions (``chainer.functions`` math family).

The package namespace holds the *functions* (``math.sum`` is the function, as
``F.sum``), re-exported for ``minichainer.functions``.  Chainer's own package
holds the *modules* there, and Chainer-style code such as
``from chainer.functions.math import sum as sum_mod; sum_mod.sum(x)`` is
common; so every function whose name equals its module's also carries that
module's public names as attributes (``sum.Sum``, ``sum.sum_to``,
``log_ndtr.log_ndtr``), making both spellings work.
"""
from minichainer.functions.math import basic_math  # noqa: F401
from minichainer.functions.math.basic_math import absolute
from minichainer.functions.math.basic_math import add

from minichainer.functions.math.arctanh import Arctanh
from minichainer.functions.math.arctanh import arctanh
from minichainer.functions.math.average import Mean
from minichainer.functions.math.average import average
from minichainer.functions.math.batch_l2_norm_squared import BatchL2NormSquared
from minichainer.functions.math.batch_l2_norm_squared import batch_l2_norm_squared
from minichainer.functions.math.bias import bias
from minichainer.functions.math.ceil import ceil
from minichainer.functions.math.cholesky import Cholesky
from minichainer.functions.math.cholesky import cholesky
from minichainer.functions.math.clip import Clip
from minichainer.functions.math.clip import clip
from minichainer.functions.math.cumprod import Cumprod
from minichainer.functions.math.cumprod import cumprod
from minichainer.functions.math.cumsum import Cumsum
from minichainer.functions.math.cumsum import cumsum
from minichainer.functions.math.det import BatchDet
from minichainer.functions.math.det import batch_det
from minichainer.functions.math.det import det
from minichainer.functions.math.digamma import DiGamma
from minichainer.functions.math.digamma import digamma
from minichainer.functions.math.einsum import einsum
from minichainer.functions.math.erf import Erf
from minichainer.functions.math.erf import erf
from minichainer.functions.math.erfc import Erfc
from minichainer.functions.math.erfc import erfc
from minichainer.functions.math.erfcinv import ErfcInv
from minichainer.functions.math.erfcinv import erfcinv
from minichainer.functions.math.erfcx import Erfcx
from minichainer.functions.math.erfcx import erfcx
from minichainer.functions.math.erfinv import ErfInv
from minichainer.functions.math.erfinv import erfinv
from minichainer.functions.math.exponential import Exp
from minichainer.functions.math.exponential import Log
from minichainer.functions.math.exponential import Log10
from minichainer.functions.math.exponential import Log2
from minichainer.functions.math.exponential import exp
from minichainer.functions.math.exponential import log
from minichainer.functions.math.exponential import log10
from minichainer.functions.math.exponential import log2
from minichainer.functions.math.exponential_m1 import Expm1
from minichainer.functions.math.exponential_m1 import expm1
from minichainer.functions.math.fft import FFT
from minichainer.functions.math.fft import fft
from minichainer.functions.math.fft import ifft
from minichainer.functions.math.fix import fix
from minichainer.functions.math.floor import floor
from minichainer.functions.math.fmod import Fmod
from minichainer.functions.math.fmod import fmod
from minichainer.functions.math.hyperbolic import Cosh
from minichainer.functions.math.hyperbolic import Sinh
from minichainer.functions.math.hyperbolic import cosh
from minichainer.functions.math.hyperbolic import sinh
from minichainer.functions.math.identity import Identity
from minichainer.functions.math.identity import identity
from minichainer.functions.math.inv import BatchInv
from minichainer.functions.math.inv import Inv
from minichainer.functions.math.inv import batch_inv
from minichainer.functions.math.inv import inv
from minichainer.functions.math.lgamma import LGamma
from minichainer.functions.math.lgamma import lgamma
from minichainer.functions.math.linear_interpolate import LinearInterpolate
from minichainer.functions.math.linear_interpolate import linear_interpolate
from minichainer.functions.math.log_ndtr import LogNdtr
from minichainer.functions.math.log_ndtr import log_ndtr
from minichainer.functions.math.logarithm_1p import Log1p
from minichainer.functions.math.logarithm_1p import log1p
from minichainer.functions.math.logsumexp import LogSumExp
from minichainer.functions.math.logsumexp import logsumexp
from minichainer.functions.math.matmul import MatMul
from minichainer.functions.math.matmul import batch_matmul
from minichainer.functions.math.matmul import matmul
from minichainer.functions.math.maximum import Maximum
from minichainer.functions.math.maximum import maximum
from minichainer.functions.math.minimum import Minimum
from minichainer.functions.math.minimum import minimum
from minichainer.functions.math.minmax import ArgMax
from minichainer.functions.math.minmax import ArgMin
from minichainer.functions.math.minmax import Max
from minichainer.functions.math.minmax import Min
from minichainer.functions.math.minmax import argmax
from minichainer.functions.math.minmax import argmin
from minichainer.functions.math.minmax import max  # noqa: A004 - Chainer's name
from minichainer.functions.math.minmax import min  # noqa: A004 - Chainer's name
from minichainer.functions.math.ndtr import Ndtr
from minichainer.functions.math.ndtr import ndtr
from minichainer.functions.math.ndtri import Ndtri
from minichainer.functions.math.ndtri import ndtri
from minichainer.functions.math.polygamma import PolyGamma
from minichainer.functions.math.polygamma import polygamma
from minichainer.functions.math.prod import Prod
from minichainer.functions.math.prod import prod
from minichainer.functions.math.scale import scale
from minichainer.functions.math.sign import sign
from minichainer.functions.math.sparse_matmul import CooMatMul
from minichainer.functions.math.sparse_matmul import sparse_matmul
from minichainer.functions.math.sqrt import Sqrt
from minichainer.functions.math.sqrt import rsqrt
from minichainer.functions.math.sqrt import sqrt
from minichainer.functions.math.square import Square
from minichainer.functions.math.square import square
from minichainer.functions.math.squared_difference import SquaredDifference
from minichainer.functions.math.squared_difference import squared_difference
from minichainer.functions.math.sum import Sum
from minichainer.functions.math.sum import SumTo
from minichainer.functions.math.sum import sum  # noqa: A004 - Chainer's name
from minichainer.functions.math.sum import sum_to
from minichainer.functions.math.tensordot import TensorDot
from minichainer.functions.math.tensordot import tensordot
from minichainer.functions.math.trigonometric import Arccos
from minichainer.functions.math.trigonometric import Arcsin
from minichainer.functions.math.trigonometric import Arctan
from minichainer.functions.math.trigonometric import Arctan2
from minichainer.functions.math.trigonometric import Cos
from minichainer.functions.math.trigonometric import Sin
from minichainer.functions.math.trigonometric import Tan
from minichainer.functions.math.trigonometric import arccos
from minichainer.functions.math.trigonometric import arcsin
from minichainer.functions.math.trigonometric import arctan
from minichainer.functions.math.trigonometric import arctan2
from minichainer.functions.math.trigonometric import cos
from minichainer.functions.math.trigonometric import sin
from minichainer.functions.math.trigonometric import tan
from minichainer.functions.math.zeta import Zeta
from minichainer.functions.math.zeta import zeta

# ``F.mean`` is Chainer's alias of ``F.average``.
mean = average


def _alias_modules():
    import sys
    for name in ('arctanh', 'average', 'batch_l2_norm_squared', 'bias', 'ceil',
                 'cholesky', 'clip', 'cumprod', 'cumsum', 'det', 'digamma', 'einsum',
                 'erf', 'erfc', 'erfcinv', 'erfcx', 'erfinv', 'fft', 'fix', 'floor',
                 'fmod', 'identity', 'inv', 'lgamma', 'linear_interpolate',
                 'log_ndtr', 'logsumexp', 'matmul', 'maximum', 'minimum', 'ndtr',
                 'ndtri', 'polygamma', 'prod', 'scale', 'sign', 'sparse_matmul', 'sqrt',
                 'square', 'squared_difference', 'sum', 'tensordot', 'zeta'):
        func = globals()[name]
        module = sys.modules[__name__ + '.' + name]
        for attr, value in vars(module).items():
            if not attr.startswith('__') and not hasattr(func, attr):
                try:
                    setattr(func, attr, value)
                except (AttributeError, TypeError):
                    pass


_alias_modules()
del _alias_modules

__all__ = [
    'Arccos', 'Arcsin', 'Arctan', 'Arctan2', 'Arctanh', 'ArgMax', 'ArgMin', 'BatchDet',
    'BatchInv', 'BatchL2NormSquared', 'Cholesky', 'Clip', 'CooMatMul', 'Cos', 'Cosh', 'Cumprod',
    'Cumsum', 'DiGamma', 'Erf', 'ErfInv', 'Erfc', 'ErfcInv', 'Erfcx', 'Exp', 'Expm1',
    'FFT', 'Fmod', 'Identity', 'Inv', 'LGamma', 'LinearInterpolate', 'Log', 'Log10',
    'Log1p', 'Log2', 'LogNdtr', 'LogSumExp', 'MatMul', 'Max', 'Maximum', 'Mean', 'Min',
    'Minimum', 'Ndtr', 'Ndtri', 'PolyGamma', 'Prod', 'Sin', 'Sinh', 'Sqrt', 'Square',
    'SquaredDifference', 'Sum', 'SumTo', 'Tan', 'TensorDot', 'Zeta',
    'absolute', 'add', 'arccos', 'arcsin', 'arctan', 'arctan2', 'arctanh', 'argmax',
    'argmin', 'average', 'batch_det', 'batch_inv', 'batch_l2_norm_squared',
    'batch_matmul', 'bias', 'ceil', 'cholesky', 'clip', 'cos', 'cosh', 'cumprod',
    'cumsum', 'det', 'digamma', 'einsum', 'erf', 'erfc', 'erfcinv', 'erfcx', 'erfinv',
    'exp', 'expm1', 'fft', 'fix', 'floor', 'fmod', 'identity', 'ifft', 'inv', 'lgamma',
    'linear_interpolate', 'log', 'log10', 'log1p', 'log2', 'log_ndtr', 'logsumexp',
    'matmul', 'max', 'maximum', 'mean', 'min', 'minimum', 'ndtr', 'ndtri', 'polygamma',
    'prod', 'rsqrt', 'scale', 'sign', 'sin', 'sinh', 'sparse_matmul', 'sqrt', 'square',
    'squared_difference', 'sum', 'sum_to', 'tan', 'tensordot', 'zeta',
]
