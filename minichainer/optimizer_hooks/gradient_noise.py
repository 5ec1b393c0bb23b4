"""GradientNoise: add annealed Gaussian noise to the gradients."""
import numpy

from minichainer import backend
from minichainer.optimizer_hooks import _checks as _util


def exponential_decay_noise(xp, shape, dtype, hook, opt):
    """Annealed Gaussian noise with variance `hook.eta / (1 + opt.t) ** 0.55`.

    From [Adding Gradient Noise Improves Learning for Very Deep Networks](https://arxiv.org/pdf/1511.06807).
    Draws from `xp.random.normal` (numpy's global RNG), as Chainer does.
    """
    std = numpy.sqrt(hook.eta / numpy.power(1 + opt.t, 0.55))
    return xp.random.normal(0, std, shape).astype(dtype)


class GradientNoise:
    """Optimizer/UpdateRule hook adding `noise_func(xp, shape, dtype, hook, rule)`
    to each gradient.

    Args:
        eta (float): Scale of the noise (0.01, 0.3 or 1.0 recommended).
        noise_func (callable): Noise generator;
            [`exponential_decay_noise`][minichainer.optimizer_hooks.gradient_noise.exponential_decay_noise]
            by default.

    Attributes:
        timing (str): `'pre'` (before the update) or `'post'`.
    """

    name = 'GradientNoise'
    call_for_each_param = True
    timing = 'pre'

    def __init__(self, eta, noise_func=exponential_decay_noise):
        _util.check_range('GradientNoise', 'eta', eta, _util.NON_NEGATIVE)
        if not callable(noise_func):
            raise TypeError('GradientNoise: noise_func must be callable, got {!r}'.format(
                noise_func))
        self.eta = eta
        self.noise_func = noise_func

    def __call__(self, rule, param):
        g = param.grad
        if g is None:
            return
        xp = backend.get_array_module(g)
        noise = self.noise_func(xp, g.shape, g.dtype, self, rule)
        g += noise
