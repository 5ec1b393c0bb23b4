"""Gumbel-softmax sampling (`chainer.functions.gumbel_softmax`)."""
from minichainer import backend
from minichainer import variable
from minichainer.functions.activation.softmax import softmax


def gumbel_softmax(log_pi, tau=0.1, axis=1):
    """Gumbel-Softmax sampling: `softmax((log_pi + g) / tau, axis)`, `g ~ Gumbel(0, 1)`.

    `g` is drawn with `numpy.random.gumbel(size=log_pi.shape)` and cast to the dtype of
    `log_pi`, as in Chainer. A 0-dim `log_pi` gives a Variable holding `1`.

    Args:
        log_pi (Variable or ndarray): Unnormalised log probabilities.
        tau (float): Temperature (> 0).
        axis (int): The axis of the categories.

    Returns:
        Variable: Relaxed one-hot samples of the same shape as `log_pi`.
    """
    xp = backend.get_array_module(log_pi)
    if log_pi.ndim < 1:
        return variable.Variable(xp.ones((), log_pi.dtype))
    dtype = log_pi.dtype
    g = xp.random.gumbel(size=log_pi.shape).astype(dtype)
    return softmax((log_pi + g) / tau, axis=axis)
