"""Bernoulli distribution (`chainer.distributions.Bernoulli`)."""
import numpy

from minichainer import backend
from minichainer import distribution
from minichainer import function_node
from minichainer import functions as F
from minichainer import utils
from minichainer import variable
from minichainer.distributions import utils as dutils
from minichainer.utils import type_check


class BernoulliLogProb(function_node.FunctionNode):
    """`log p(x)` of a Bernoulli distribution given by its logit, for inputs (logit, x).

    Infinite logits give `log x` / `log(1 - x)`; with `binary_check` a value
    that is neither 0 nor 1 has log-probability `-inf`.  Only `logit` gets a
    gradient (`x - sigmoid(logit)`; NaN where the logit is infinite or x invalid).
    """

    def __init__(self, binary_check=False):
        self.binary_check = binary_check

    @property
    def label(self):
        return 'bernoulli_log_prob'

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('logit', 'x'))
        type_check.expect(in_types[0].dtype.kind == 'f')

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        logit, x = inputs
        xp = backend.get_array_module(logit, x)
        # x * logit - log(1 + exp(logit)), written to stay finite for large |logit|.
        with numpy.errstate(invalid='ignore'):
            y = x * logit - xp.logaddexp(0, logit)
        inf_logit = xp.isinf(logit)
        self._inf_logit = inf_logit
        if inf_logit.any():
            with numpy.errstate(divide='ignore', invalid='ignore'):
                y = xp.where(inf_logit & (logit > 0), xp.log(x), y)
                y = xp.where(inf_logit & (logit <= 0), xp.log1p(-x), y)
        y = utils.force_array(y, logit.dtype)
        if self.binary_check:
            self._invalid = utils.force_array((x != 0) & (x != 1))
            y = xp.broadcast_to(y, self._invalid.shape).copy() \
                if y.shape != self._invalid.shape else y
            y[self._invalid] = -numpy.inf
        return y,

    def backward(self, indexes, grad_outputs):
        logit, x = self.get_retained_inputs()
        gy, = grad_outputs
        # x is data (no gradient); it may differ from logit in dtype and shape.
        glogit = -F.sigmoid(logit) + x.array.astype(logit.dtype, copy=False)
        bad = self._inf_logit
        if self.binary_check:
            bad = bad | self._invalid
        if bad.any():
            xp = backend.get_array_module(gy.array)
            bad = xp.broadcast_to(bad, glogit.shape)
            glogit = F.where(bad, xp.full(glogit.shape, numpy.nan, glogit.dtype), glogit)
        return F.sum_to(gy * glogit, logit.shape), None


def _bernoulli_log_prob(logit, x, binary_check=False):
    return BernoulliLogProb(binary_check).apply((logit, x))[0]


class Bernoulli(distribution.Distribution):
    """Bernoulli distribution over `{0, 1}`.

    Args:
        p (Variable or ndarray): probability of 1.
        logit (Variable or ndarray): log-odds of 1; exactly one of `p` and
            `logit` is required.
        binary_check (bool): if True, `log_prob`/`prob` of values other than 0 or
            1 are `-inf`/0.
    """

    def __init__(self, p=None, logit=None, binary_check=False):
        dutils.exclusive('Bernoulli', p=p, logit=logit)
        self._p_in = dutils.check_param('Bernoulli', 'p', p, optional=True)
        self._logit_in = dutils.check_param('Bernoulli', 'logit', logit, optional=True)
        self.binary_check = binary_check

    @dutils.cached_property
    def p(self):
        if self._p_in is None:
            return F.sigmoid(self.logit)
        return variable.as_variable(self._p_in)

    @dutils.cached_property
    def logit(self):
        if self._logit_in is None:
            return F.log(self.p) - F.log1p(-self.p)
        return variable.as_variable(self._logit_in)

    @property
    def batch_shape(self):
        return self.p.shape

    @property
    def event_shape(self):
        return ()

    @property
    def params(self):
        return {'logit': self.logit}

    @property
    def support(self):
        return '{0, 1}'

    @dutils.cached_property
    def entropy(self):
        p = self.p
        return -dutils.modified_xlogx(p) - dutils.modified_xlogx(p.dtype.type(1) - p)

    @dutils.cached_property
    def mean(self):
        return self.p

    @dutils.cached_property
    def variance(self):
        return self.p * (1 - self.p)

    @dutils.cached_property
    def stddev(self):
        return self.variance ** 0.5

    def log_prob(self, x):
        return _bernoulli_log_prob(self.logit, x, self.binary_check)

    def prob(self, x):
        x = variable.as_variable(x)
        result = x * self.p + (1 - x) * (1 - self.p)
        if self.binary_check:
            valid = (x.array == 0) | (x.array == 1)
            result = result * valid.astype(result.dtype)
        return result

    def sample_n(self, n):
        p = self.p.array
        return variable.Variable(numpy.random.binomial(1, p, size=(n,) + p.shape))


@distribution.register_kl(Bernoulli, Bernoulli)
def _kl_bernoulli_bernoulli(dist1, dist2):
    # KL = (l1 - l2) (p1 - 1) - log(1 + exp(-l1)) + log(1 + exp(-l2)) with l the logits.
    return ((dist1.logit - dist2.logit) * (dist1.p - 1.0)
            - F.softplus(-dist1.logit) + F.softplus(-dist2.logit))
