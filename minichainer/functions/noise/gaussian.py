"""Gaussian sampling with the reparameterisation trick (`chainer.functions.gaussian`)."""
from minichainer import backend
from minichainer import function_node
from minichainer import utils
from minichainer.utils import argument
from minichainer.functions.util import checks
from minichainer.functions.math.exponential import exp


class Gaussian(function_node.FunctionNode):
    """Samples `mean + exp(ln_var / 2) * eps` with `eps ~ N(0, 1)`."""

    def __init__(self, eps=None):
        # When eps is set, it is used instead of a fresh draw (deterministic).
        self.eps = eps

    def check_type_forward(self, in_types):
        checks.expect_same_float_pair(in_types, ('mean', 'ln_var'))

    def forward(self, inputs):
        self.retain_inputs((1,))
        mean, ln_var = inputs
        xp = backend.get_array_module(mean)
        if self.eps is None:
            self.eps = xp.random.standard_normal(ln_var.shape).astype(
                mean.dtype, copy=False)
        self.noise = xp.exp(ln_var * mean.dtype.type(0.5)) * self.eps
        return utils.force_array(mean + self.noise),

    def backward(self, indexes, grad_outputs):
        ln_var, = self.get_retained_inputs()
        gy, = grad_outputs
        ret = []
        if 0 in indexes:
            ret.append(gy)
        if 1 in indexes:
            noise = exp(ln_var * 0.5) * self.eps
            ret.append(gy * noise * 0.5)
        return ret


def gaussian(mean, ln_var, **kwargs):
    """Gaussian sampling function `mean + exp(ln_var / 2) * eps`, `eps ~ N(0, I)`.

    `eps` is drawn with `numpy.random.standard_normal(shape)` and cast to the dtype
    of `mean`, as in Chainer. It is drawn in test mode too.

    Args:
        mean (Variable or ndarray): Mean of the distribution.
        ln_var (Variable or ndarray): Logarithm of the variance, same shape.
        eps (ndarray): Keyword only. Noise to use instead of a fresh draw.
        return_eps (bool): Keyword only. Also return the noise used.

    Returns:
        Variable or tuple: The sample, or `(sample, eps)` if `return_eps`.
    """
    eps = None
    return_eps = False
    if kwargs:
        eps, return_eps = argument.parse_kwargs(
            kwargs, ('eps', eps), ('return_eps', return_eps))
    func = Gaussian(eps)
    out = func.apply((mean, ln_var))[0]
    if return_eps:
        return out, func.eps
    return out
