"""Losses used by variational auto-encoders."""
import math
from minichainer.functions.activation.softplus import softplus
from minichainer.functions.math.average import average
from minichainer.functions.math.exponential import exp
from minichainer.functions.math.sum import sum as _sum
from minichainer.functions.util import checks


def _reduce(loss, reduce):
    if reduce == 'sum':
        return _sum(loss)
    if reduce == 'mean':
        return average(loss)
    return loss


def gaussian_kl_divergence(mean, ln_var, reduce='sum'):
    """KL divergence of N(mean, exp(ln_var)) from the standard normal N(0, I).

    Args:
        reduce (str): `'sum'`, `'mean'` or `'no'` (elementwise).
    """
    checks.reduce_option(reduce, ('sum', 'mean', 'no'))
    var = exp(ln_var)
    mean_square = mean * mean
    loss = (mean_square + var - ln_var - 1) * 0.5
    return _reduce(loss, reduce)


def bernoulli_nll(x, y, reduce='sum'):
    """Negative log-likelihood of `x` under Bernoulli(sigmoid(y)).

    Args:
        x (Variable or ndarray): observed values in [0, 1].
        y (Variable or ndarray): logits of the Bernoulli parameters.
        reduce (str): `'sum'`, `'mean'` or `'no'`.
    """
    checks.reduce_option(reduce, ('sum', 'mean', 'no'))
    loss = softplus(y) - x * y
    return _reduce(loss, reduce)


def gaussian_nll(x, mean, ln_var, reduce='sum'):
    """Negative log-likelihood of `x` under N(mean, exp(ln_var)) (diagonal).

    Args:
        reduce (str): `'sum'`, `'mean'` or `'no'`.
    """
    checks.reduce_option(reduce, ('sum', 'mean', 'no'))
    x_prec = exp(-ln_var)
    x_diff = x - mean
    x_power = (x_diff * x_diff) * x_prec * -0.5
    loss = (ln_var + math.log(2 * math.pi)) / 2 - x_power
    return _reduce(loss, reduce)
