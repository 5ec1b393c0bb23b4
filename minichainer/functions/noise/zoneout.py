"""Zoneout (`chainer.functions.zoneout`)."""
from minichainer import backend
from minichainer import configuration
from minichainer import function_node
from minichainer import utils
from minichainer.utils import argument
from minichainer.utils import type_check


class Zoneout(function_node.FunctionNode):
    """Keeps each element of the previous state `h` with probability `zoneout_ratio`."""

    def __init__(self, zoneout_ratio):
        self.zoneout_ratio = zoneout_ratio

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 2)

    def forward(self, inputs):
        h, x = inputs
        xp = backend.get_array_module(x)
        flag_x = xp.random.rand(*x.shape) >= self.zoneout_ratio
        self.flag_h = xp.ones_like(flag_x) ^ flag_x
        self.flag_x = flag_x
        return utils.force_array(h * self.flag_h + x * self.flag_x),

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        dtype = gy.dtype
        ret = []
        if 0 in indexes:
            ret.append(gy * self.flag_h.astype(dtype))
        if 1 in indexes:
            ret.append(gy * self.flag_x.astype(dtype))
        return ret


def zoneout(h, x, ratio=.5, **kwargs):
    """Zoneout regularisation: mixes `h` (kept with probability `ratio`) and `x`.

    In training mode a flag `numpy.random.rand(*x.shape) >= ratio` selects `x`, the
    rest comes from `h`; in test mode `x` is returned as given (not wrapped).

    Args:
        h (Variable or ndarray): Previous state.
        x (Variable or ndarray): Input (new state), same shape as `h`.
        ratio (float): Zoneout ratio.

    Returns:
        Variable: The mixed state (`x` itself in test mode).
    """
    if kwargs:
        argument.check_unexpected_kwargs(
            kwargs, train='train argument is not supported anymore. '
                          'Use chainer.using_config')
        argument.assert_kwargs_empty(kwargs)
    if configuration.config.train:
        return Zoneout(ratio).apply((h, x))[0]
    return x
