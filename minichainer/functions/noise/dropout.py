"""Dropout (`chainer.functions.dropout`)."""

from minichainer import backend
from minichainer import configuration
from minichainer import function_node
from minichainer import variable
from minichainer import utils
from minichainer.utils import argument
from minichainer.utils import type_check


class Dropout(function_node.FunctionNode):
    """Zeroes elements with probability `dropout_ratio`, scales the rest by `1/(1-ratio)`."""

    def __init__(self, dropout_ratio, mask=None, return_mask=False):
        if not 0.0 <= dropout_ratio < 1.0:
            raise ValueError('dropout: ratio must be in the range [0, 1), got {}'
                             .format(dropout_ratio))
        self.dropout_ratio = dropout_ratio
        self.mask = mask
        self.return_mask = return_mask
        self._use_cudnn = False

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x',))
        type_check.expect(in_types[0].dtype.kind == 'f')

    def forward(self, inputs):
        x, = inputs
        if self.mask is not None:
            y = x * self.mask
        else:
            scale = x.dtype.type(1. / (1 - self.dropout_ratio))
            # Same draw as Chainer: one float64 uniform per element from the global RNG
            # (NumPy's, or the device's random generator for a CuPy array).
            xp = backend.get_array_module(x)
            flag = xp.random.rand(*x.shape) >= self.dropout_ratio
            self.mask = scale * flag
            y = x * self.mask
        return utils.force_array(y),

    def backward(self, indexes, grad_outputs):
        return DropoutGrad(self.mask).apply(grad_outputs)


class DropoutGrad(function_node.FunctionNode):
    """Gradient of dropout: multiplies by the fixed mask."""

    def __init__(self, mask):
        self.mask = mask

    def forward(self, inputs):
        return utils.force_array(inputs[0] * self.mask),

    def backward(self, indexes, grad_outputs):
        return DropoutGrad(self.mask).apply(grad_outputs)


def dropout(x, ratio=.5, **kwargs):
    """Drops elements of `x` at random with probability `ratio` (training only).

    In training mode (`config.train`) each element is kept when
    `numpy.random.rand(*x.shape) >= ratio` (`cupy.random.rand` for a CuPy array) and
    the kept ones are scaled by `1 / (1 - ratio)`; in test mode `x` is returned as a
    Variable unchanged.

    Args:
        x (Variable or ndarray): Input float array.
        ratio (float): Dropout ratio in `[0, 1)`.
        mask (ndarray): Keyword only. A scaled mask (`0` or `1 / (1 - ratio)`) to use
            instead of drawing one.
        return_mask (bool): Keyword only. Also return the mask used (None in test mode).

    Returns:
        Variable or tuple: The output, or `(output, mask)` if `return_mask`.

    Raises:
        ValueError: `ratio` is outside `[0, 1)`.
    """
    mask = None
    return_mask = False
    if kwargs:
        mask, return_mask = argument.parse_kwargs(
            kwargs, ('mask', mask), ('return_mask', return_mask),
            train='train argument is not supported anymore. '
                  'Use chainer.using_config')

    if configuration.config.train:
        func = Dropout(ratio, mask, return_mask)
        out, = func.apply((x,))
        mask = func.mask
    else:
        out = variable.as_variable(x)
        mask = None

    if return_mask:
        return out, mask
    return out
