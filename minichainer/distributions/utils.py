"""Helpers shared by the distributions (`chainer.distributions.utils`)."""
import warnings

import numpy

from minichainer import backend
from minichainer import function_node
from minichainer import functions as F
from minichainer import utils
from minichainer import variable
from minichainer.utils import type_check
from minichainer.utils.cache import cached_property


def param(name):
    """Cached read-only property exposing constructor argument `name` as a Variable.

    The argument is stored by the constructor as `self._<name>_in`.
    """
    storage = '_{}_in'.format(name)

    def get(self):
        return variable.as_variable(getattr(self, storage))
    get.__name__ = name
    get.__doc__ = 'Variable: the `{}` parameter.'.format(name)
    return cached_property(get)


class ScalarDistribution:
    """Mixin for distributions of scalars given by the parameters named in
    `_param_names`: the batch shape is the first parameter's, the event shape `()`,
    `params` maps the names to the parameters and `support` is `_support`."""

    _param_names = ()
    _support = None

    @property
    def batch_shape(self):
        return getattr(self, self._param_names[0]).shape

    @property
    def event_shape(self):
        return ()

    @property
    def params(self):
        return {name: getattr(self, name) for name in self._param_names}

    @property
    def support(self):
        return self._support


class RateDistribution(ScalarDistribution):
    """Mixin for the distributions of one rate parameter `lam` (Exponential, Poisson);
    `_owner` names the distribution in error messages."""

    _param_names = ('lam',)
    _owner = None

    def __init__(self, lam):
        self._lam_in = check_param(self._owner, 'lam', lam)

    lam = param('lam')

    @cached_property
    def _log_lam(self):
        return F.log(self.lam)


def check_param(owner, name, value, optional=False):
    """Check that parameter `name` of distribution `owner` is a Variable or ndarray."""
    if value is None and optional:
        return None
    if isinstance(value, variable.Variable) or \
            isinstance(value, backend.get_array_types()):
        return value
    raise TypeError('{}: {} must be a chainer.Variable or an ndarray, got {}'.format(
        owner, name, type(value).__name__))


def exclusive(owner, **pairs):
    """Raise `ValueError` unless exactly one of the keyword values is given."""
    given = [name for name, value in pairs.items() if value is not None]
    if len(given) != 1:
        names = sorted(pairs)
        raise ValueError('{}: either `{}` or `{}` (not both) must have a value, got {}'.format(
            owner, names[0], names[1], 'both' if given else 'neither'))


def draw(sampler, shape, dtype, *args):
    """Draw `sampler(*args, size=shape)` from NumPy's global RNG, cast to `dtype`."""
    return sampler(*args, size=shape).astype(dtype, copy=False)


def draw_given(sampler, param, n, dtype=None):
    """`n` draws of `sampler(param)` per element of the Variable `param` (shape
    `(n,) + param.shape`), cast to `dtype` (default: `param`'s dtype)."""
    return draw(sampler, (n,) + param.shape, param.dtype if dtype is None else dtype,
                param.array)


def array_of(x):
    """The ndarray behind `x` (a Variable or an ndarray)."""
    return x.array if isinstance(x, variable.Variable) else x


class ModifiedXLogX(function_node.FunctionNode):
    """`x * log(x)` with the value 0 at `x == 0` (`log(x)` is given as a Variable)."""

    def __init__(self, logx):
        self._logx = logx

    @property
    def label(self):
        return 'modified_xlogx'

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x',))
        type_check.expect(in_types[0].dtype.kind == 'f')

    def forward(self, inputs):
        x, = inputs
        self._at_zero = utils.force_array(x == 0)
        y = utils.force_array(x * self._logx.array)
        y[self._at_zero] = 0
        return y,

    def backward(self, indexes, grad_outputs):
        if self._at_zero.any():
            warnings.warn('cannot calculate gradient for zero input.', RuntimeWarning)
        gy, = grad_outputs
        keep = (~self._at_zero).astype(gy.dtype)
        return gy * ((1 + self._logx) * keep),


def modified_xlogx(x):
    """Differentiable `x log x` that is 0 (not NaN) where `x == 0`."""
    x = variable.as_variable(x)
    xp = backend.get_array_module(x.array)
    positive = utils.force_array(x.array > 0)
    logx = F.log(F.where(positive, x, xp.ones_like(x.array)))
    return ModifiedXLogX(logx).apply((x,))[0]


def random_choice(xp, k, n, p, owner='Categorical'):
    """`n` draws of `xp.random.choice(k, p=p)`; renormalizes a float32 `p` whose sum
    is off by rounding (and only then; a clearly unnormalized `p` is an error)."""
    try:
        return xp.random.choice(k, n, p=p)
    except ValueError:
        p = p.astype(numpy.float64)
        total = p.sum()
        tol = numpy.finfo(numpy.float32).eps ** 0.5
        if not abs(total - 1) <= tol:
            raise ValueError('{}: p must sum to 1 along the last axis, got a sum of {}'
                             .format(owner, total)) from None
        return xp.random.choice(k, n, p=p / total)


def categorical_indices(p, n, owner='Categorical'):
    """Draw `n` category indices per row of `p` (last axis = categories).

    Rows are drawn one after another (row-major over the batch), `n` each, as
    Chainer does; returns an int array of shape `(n,) + p.shape[:-1]`.
    """
    xp = backend.get_array_module(p)
    rows = p.reshape(-1, p.shape[-1])
    draws = [random_choice(xp, rows.shape[1], n, row, owner) for row in rows]
    return xp.stack(draws, axis=1).reshape((n,) + p.shape[:-1])


def where_else(condition, value, fill):
    """`value` where `condition` holds (broadcast), the constant `fill` elsewhere."""
    xp = backend.get_array_module(value.array)
    condition = xp.broadcast_to(utils.force_array(condition), value.shape)
    return F.where(condition, value, xp.full(value.shape, fill, value.dtype))


_modified_xlogx = modified_xlogx  # Chainer's name
