"""Scaled exponential linear unit (`chainer.functions.selu`)."""
from minichainer.functions.activation.elu import elu as _elu


def selu(x,
         alpha=1.6732632423543772848170429916717,
         scale=1.0507009873554804934193349852946):
    """Scaled Exponential Linear Unit, `scale * elu(x, alpha)`.

    Args:
        x (Variable or ndarray): Input float array.
        alpha (float): Parameter `alpha`.
        scale (float): Parameter `lambda`.

    Returns:
        Variable: Output of the same shape and dtype.
    """
    return scale * _elu(x, alpha=alpha)
