"""Selecting one element per row (`chainer.functions.select_item`)."""
from minichainer import backend
from minichainer import function_node
from minichainer.functions.util import checks
from minichainer.utils import type_check


def _check_labels(t, n_class):
    if t.size and (int(t.min()) < 0 or int(t.max()) >= n_class):
        bad = t[(t < 0) | (t >= n_class)]
        raise ValueError(
            'select_item: each label t must satisfy 0 <= t < x.shape[1] = {}, got label {}'
            .format(n_class, int(bad[0])))


class SelectItem(function_node.FunctionNode):
    """Select `x[i, t[i]]` for every row `i`."""

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x', 't'))
        x_type, t_type = in_types
        type_check.expect(
            t_type.dtype.kind == 'i',
            x_type.ndim == 2,
            t_type.ndim == 1,
            x_type.shape[0] == t_type.shape[0],
        )

    def forward(self, inputs):
        self.retain_inputs((1,))
        x, t = inputs
        xp = backend.get_array_module(x)
        if checks.values_checked(xp):
            _check_labels(t, x.shape[1])
        return x[xp.arange(t.size), t],

    def backward(self, indexes, grad_outputs):
        t = self.get_retained_inputs()[0]
        ret = []
        if 0 in indexes:
            node = self.inputs[0]
            ret.append(Assign(node.shape, node.dtype, t).apply(grad_outputs)[0])
        if 1 in indexes:
            ret.append(None)
        return ret


class Assign(function_node.FunctionNode):
    """Gradient of `SelectItem`: scatter `gy[i]` into `gx[i, t[i]]`."""

    def __init__(self, shape, dtype, t):
        self.shape = shape
        self.dtype = dtype
        self.t = t.array if hasattr(t, 'array') else t

    def forward(self, inputs):
        gy, = inputs
        xp = backend.get_array_module(gy)
        gx = xp.zeros(self.shape, self.dtype)
        gx[xp.arange(self.t.size), self.t] = gy
        return gx,

    def backward(self, indexes, grad_outputs):
        return SelectItem().apply((grad_outputs[0], self.t))


def select_item(x, t):
    """Select `x[i, t[i]]` for each row `i`.

    Deliberate difference: labels of NumPy arrays are always range-checked (Chainer does
    so only in debug mode), so a negative label cannot silently pick from the end of a
    row; labels of CuPy arrays only in debug mode, as in Chainer.

    Args:
        x (Variable or numpy.ndarray): Variable of shape `(B, N)`.
        t (Variable or numpy.ndarray): Int array of shape `(B,)`.

    Returns:
        Variable: Variable of shape `(B,)`.

    Raises:
        ValueError: when a label is outside `[0, N)`.
    """
    return SelectItem().apply((x, t))[0]
