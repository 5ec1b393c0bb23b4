"""Probability distribution interface (`chainer.Distribution`) and the KL registry.

A distribution describes samples of shape `sample_shape + batch_shape + event_shape`:
`batch_shape` indexes independent (not identically parameterized) distributions and
`event_shape` is the shape of one draw.  Density-like methods take such a sample and
return values of shape `sample_shape + batch_shape`.  Everything computed from
[`Variable`][minichainer.variable.Variable] parameters is differentiable.

`kl_divergence(p, q)` dispatches on `(type(p), type(q))` to a function registered
with [`register_kl`][minichainer.distribution.register_kl].
"""
import copy

from minichainer import backend


class Distribution:
    """Base class of probability distributions (`chainer.Distribution`).

    Subclasses override the properties and methods they support; the others raise
    `NotImplementedError`.  Sampling code belongs in
    [`sample_n`][minichainer.distribution.Distribution.sample_n];
    [`sample`][minichainer.distribution.Distribution.sample] reshapes its result.
    """

    def _copy_to(self, target):
        target.__dict__ = copy.copy(self.__dict__)
        return target

    def _not_implemented(self, what):
        return NotImplementedError('{} does not implement {}'.format(
            type(self).__name__, what))

    # shapes -------------------------------------------------------------------------
    @property
    def batch_shape(self):
        """tuple: shape of the batch of independent distributions."""
        raise self._not_implemented('batch_shape')

    @property
    def event_shape(self):
        """tuple: shape of a single event (one draw of one distribution)."""
        raise self._not_implemented('event_shape')

    # statistics ---------------------------------------------------------------------
    @property
    def covariance(self):
        """Variable: covariance matrix of the distribution."""
        raise self._not_implemented('covariance')

    @property
    def entropy(self):
        """Variable: entropy of the distribution."""
        raise self._not_implemented('entropy')

    @property
    def mean(self):
        """Variable: mean of the distribution."""
        raise self._not_implemented('mean')

    @property
    def mode(self):
        """Variable: mode of the distribution."""
        raise self._not_implemented('mode')

    @property
    def stddev(self):
        """Variable: standard deviation of the distribution."""
        raise self._not_implemented('stddev')

    @property
    def variance(self):
        """Variable: variance of the distribution."""
        raise self._not_implemented('variance')

    @property
    def params(self):
        """dict: the parameters (name to Variable) of the distribution."""
        raise self._not_implemented('params')

    @property
    def support(self):
        """str: a description of the support of the distribution."""
        raise self._not_implemented('support')

    # functions of a sample ----------------------------------------------------------
    def cdf(self, x):
        """Cumulative distribution function evaluated at `x`."""
        raise self._not_implemented('cdf')

    def icdf(self, x):
        """Inverse cumulative distribution function evaluated at `x`."""
        raise self._not_implemented('icdf')

    def log_cdf(self, x):
        """Logarithm of the cumulative distribution function evaluated at `x`."""
        raise self._not_implemented('log_cdf')

    def log_prob(self, x):
        """Logarithm of the probability (density or mass) evaluated at `x`."""
        raise self._not_implemented('log_prob')

    def log_survival_function(self, x):
        """Logarithm of the survival function evaluated at `x`."""
        raise self._not_implemented('log_survival_function')

    def perplexity(self, x):
        """Perplexity evaluated at `x`."""
        raise self._not_implemented('perplexity')

    def prob(self, x):
        """Probability (density or mass) evaluated at `x`."""
        raise self._not_implemented('prob')

    def survival_function(self, x):
        """Survival function (`1 - cdf`) evaluated at `x`."""
        raise self._not_implemented('survival_function')

    # sampling -----------------------------------------------------------------------
    def sample(self, sample_shape=()):
        """Draw samples of shape `sample_shape + batch_shape + event_shape`.

        `sample_shape` is a tuple of ints or an int (`n` means `(n,)`); the
        default `()` draws one sample without a leading axis.  Subclasses implement
        [`sample_n`][minichainer.distribution.Distribution.sample_n], not this method.
        """
        if isinstance(sample_shape, int):
            sample_shape = (sample_shape,)
        else:
            try:
                sample_shape = tuple(sample_shape)
            except TypeError:
                raise TypeError(
                    '{}.sample: sample_shape must be an int or a tuple of ints, got {!r}'
                    .format(type(self).__name__, sample_shape)) from None
        n = 1
        for size in sample_shape:
            n *= size
        samples = self.sample_n(n)
        return samples.reshape(sample_shape + self.batch_shape + self.event_shape)

    def sample_n(self, n):
        """Draw `n` samples, shaped `(n,) + batch_shape + event_shape`."""
        raise self._not_implemented('sample_n')

    # placement ----------------------------------------------------------------------
    @property
    def xp(self):
        """Array module (`numpy`) of the parameters."""
        return backend.get_array_module(*self.params.values())

    @property
    def device(self):
        """Device of the parameters (a `Device`)."""
        param = next(iter(self.params.values()))
        return backend.get_device_from_array(getattr(param, 'array', param))


_KLDIVERGENCE = {}


def register_kl(Dist1, Dist2):
    """Decorator registering a function computing `KL(Dist1 || Dist2)`.

    The decorated function receives an instance of `Dist1` and one of `Dist2` and
    returns the KL divergence; [`kl_divergence`][minichainer.distribution.kl_divergence] calls it
    for these types.
    """
    for arg, cls in (('Dist1', Dist1), ('Dist2', Dist2)):
        if not isinstance(cls, type):
            raise TypeError('register_kl: {} must be a Distribution class, got {!r}'
                            .format(arg, cls))

    def register(kl):
        _KLDIVERGENCE[Dist1, Dist2] = kl
    return register


class _KLNotRegistered(KeyError, NotImplementedError):
    def __str__(self):
        return self.args[0]


def _find_kl(type1, type2):
    kl = _KLDIVERGENCE.get((type1, type2))
    if kl is not None:
        return kl
    # Fall back to the closest registered pair of base classes.
    for base1 in type1.__mro__:
        for base2 in type2.__mro__:
            kl = _KLDIVERGENCE.get((base1, base2))
            if kl is not None:
                return kl
    raise _KLNotRegistered(
        'kl_divergence: no KL divergence is registered for ({}, {}); register one with '
        'register_kl'.format(type1.__name__, type2.__name__))


def kl_divergence(dist1, dist2):
    """Kullback-Leibler divergence `KL(dist1 || dist2)`.

    Uses the function registered with [`register_kl`][minichainer.distribution.register_kl] for the
    two types; raises `KeyError` (also a `NotImplementedError`) when none is registered.
    """
    return _find_kl(type(dist1), type(dist2))(dist1, dist2)


def cross_entropy(dist1, dist2):
    """Cross entropy `H(dist1, dist2) = entropy(dist1) + KL(dist1 || dist2)`."""
    return dist1.entropy + kl_divergence(dist1, dist2)
