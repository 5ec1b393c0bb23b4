"""`tensordot`: tensor dot product along given axes."""
import collections.abc

import numpy

from minichainer import backend
from minichainer import function_node
from minichainer import utils
from minichainer.utils import type_check


def _tensordot(a, b, a_axes, b_axes, c_axes=None):
    """`tensordot` contracting `a_axes[1]` of `a` with `b_axes[0]` of `b`.

    `a_axes[0]` / `b_axes[1]` are the free axes; `c_axes` (optional) gives
    the output positions of those free axes (`c_axes[0]` for `a`'s,
    `c_axes[1]` for `b`'s).
    """
    a_free, a_con = a_axes
    b_con, b_free = b_axes
    if len(a_con) != len(b_con):
        raise ValueError('tensordot: axes count mismatch: {} axes of a against {} '
                         'axes of b'.format(len(a_con), len(b_con)))
    if a.ndim < len(a_con) or b.ndim < len(b_con):
        raise ValueError('tensordot: dimension of input tensors must be greater '
                         'equal to dot-axes count ({}), got a.ndim={} and b.ndim={}'
                         .format(len(a_con), a.ndim, b.ndim))
    for a_axis, b_axis in zip(a_con, b_con):
        if a.shape[a_axis] != b.shape[b_axis]:
            raise ValueError(
                'tensordot: shape mismatch: a.shape[{}]={} but b.shape[{}]={}'.format(
                    a_axis, a.shape[a_axis], b_axis, b.shape[b_axis]))
    xp = backend.get_array_module(a)
    y = xp.tensordot(a, b, axes=(tuple(a_con), tuple(b_con)))
    if c_axes is not None:
        c_a, c_b = c_axes
        if len(a_free) != len(c_a) or len(b_free) != len(c_b):
            raise ValueError('tensordot: axes count mismatch of the output axes')
        # numpy puts the free axes of a (in increasing order), then those of b.
        a_rank = {ax: r for r, ax in enumerate(sorted(a_free))}
        b_rank = {ax: r for r, ax in enumerate(sorted(b_free))}
        trans = [None] * y.ndim
        for i, c in enumerate(c_a):
            trans[c] = a_rank[a_free[i]]
        for j, c in enumerate(c_b):
            trans[c] = len(a_free) + b_rank[b_free[j]]
        if trans != list(range(y.ndim)):
            y = xp.transpose(y, trans)
    return y


def _normalize(axis, ndim, name):
    if not -ndim <= axis < ndim:
        raise ValueError('tensordot: axis {} is out of bounds for {} of dimension {}'
                         .format(axis, name, ndim))
    return axis + ndim if axis < 0 else axis


class TensorDot(function_node.FunctionNode):
    """Tensor dot product (see [`tensordot`][minichainer.functions.math.tensordot.tensordot])."""

    def __init__(self, axes=2, a_axes=None, b_axes=None, c_axes=None, dtype=None):
        self.axes = axes
        self.a_axes = a_axes
        self.b_axes = b_axes
        self.c_axes = c_axes
        self.dtype = dtype
        if isinstance(axes, collections.abc.Sequence) and not isinstance(axes, str):
            if len(axes) != 2:
                raise ValueError('tensordot: axes must be a pair of sequences of '
                                 'integers when it is a list or tuple, got {!r}'
                                 .format(axes))
        elif isinstance(axes, int) and not isinstance(axes, bool):
            pass
        else:
            raise TypeError('tensordot: axes must be a pair of sequences of integers '
                            'or an integer, got {!r}'.format(axes))

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('a', 'b'))
        a_type, b_type = in_types
        type_check.expect(
            a_type.dtype.kind == 'f',
            b_type.dtype.kind == 'f',
        )

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        a, b = inputs
        if self.a_axes is None or self.b_axes is None:
            axes = self.axes
            if isinstance(axes, collections.abc.Sequence):
                a_con, b_con = axes
                a_con = [a_con] if numpy.isscalar(a_con) else list(a_con)
                b_con = [b_con] if numpy.isscalar(b_con) else list(b_con)
                a_con = [_normalize(ax, a.ndim, 'a') for ax in a_con]
                b_con = [_normalize(ax, b.ndim, 'b') for ax in b_con]
            else:
                if axes > a.ndim or axes > b.ndim:
                    raise ValueError(
                        'tensordot: dimension of input tensors must be greater equal '
                        'to dot-axes count ({}), got a.ndim={} and b.ndim={}'.format(
                            axes, a.ndim, b.ndim))
                a_con = list(range(a.ndim - axes, a.ndim))
                b_con = list(range(axes))
            a_free = [i for i in range(a.ndim) if i not in a_con]
            b_free = [i for i in range(b.ndim) if i not in b_con]
            self.a_axes = [a_free, a_con]
            self.b_axes = [b_con, b_free]
        c = _tensordot(a, b, self.a_axes, self.b_axes, self.c_axes)
        if self.c_axes is None:
            n_a = len(self.a_axes[0])
            n_b = len(self.b_axes[1])
            self.c_axes = [list(range(n_a)), list(range(n_a, n_a + n_b))]
        return utils.force_array(c, self.dtype),

    def backward(self, indexes, grad_outputs):
        a, b = self.get_retained_inputs()
        gc, = grad_outputs
        ga = gb = None
        if 0 in indexes:
            ga, = TensorDot(a_axes=self.c_axes,
                            b_axes=[self.b_axes[1], self.b_axes[0]],
                            c_axes=self.a_axes,
                            dtype=a.dtype).apply((gc, b))
        if 1 in indexes:
            gb, = TensorDot(a_axes=[self.a_axes[1], self.a_axes[0]],
                            b_axes=self.c_axes,
                            c_axes=self.b_axes,
                            dtype=b.dtype).apply((a, gc))
        return ga, gb


def tensordot(a, b, axes=2):
    """Tensor dot product of two arrays along specified axes (as `numpy.tensordot`).

    Args:
        a (Variable or ndarray): The first argument.
        b (Variable or ndarray): The second argument.
        axes: An int `n` contracts the last `n` axes of `a` with the first
            `n` of `b`; a pair of (sequences of) ints names the axes of
            `a` and `b` to contract pairwise.

    Returns:
        Variable: The tensor dot product.

    Raises:
        ValueError: the contracted axes differ in number or length.
    """
    return TensorDot(axes=axes).apply((a, b))[0]
