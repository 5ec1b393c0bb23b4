"""Splitting an array along an axis (`chainer.functions.split_axis`)."""
import collections.abc

import numpy

import minichainer
from minichainer import backend
from minichainer import function_node
from minichainer.functions.array import concat
from minichainer.utils import type_check


def _get_indices_or_sections(indices_or_sections):
    """Return `(indices, None)` for a sequence of split points or `(None, sections)`."""
    ios = indices_or_sections
    is_seq = False
    if isinstance(ios, numpy.ndarray):
        if ios.dtype.kind not in 'iu' and ios.size > 0:
            raise TypeError('indices_or_sections must be integers, got an array of dtype '
                            '{}'.format(ios.dtype))
        if ios.ndim >= 2:
            raise TypeError('indices_or_sections must be a 1-D sequence, got an array of '
                            'ndim {}'.format(ios.ndim))
        is_seq = ios.ndim != 0
        ios = [int(i) for i in ios] if is_seq else int(ios)
    elif isinstance(ios, collections.abc.Sequence):
        ios = list(ios)
        is_seq = True
    elif isinstance(ios, (int, numpy.integer)):
        ios = int(ios)
    else:
        raise TypeError('indices_or_sections must be integer or 1-D array.\n'
                        'Actual: {}'.format(type(indices_or_sections)))
    if is_seq and minichainer.is_debug():
        for p, n in zip(ios, ios[1:]):
            if p > n:
                raise ValueError('indices_or_sections must be sorted')
    if is_seq:
        return ios, None
    return None, ios


class SplitAxis(function_node.FunctionNode):
    """Split an array into several along an axis."""

    def __init__(self, indices_or_sections, axis):
        self.indices, self.sections = _get_indices_or_sections(indices_or_sections)
        self.axis = axis

    @property
    def indices_or_sections(self):
        return self.indices if self.indices is not None else self.sections

    def check_type_forward(self, in_types):
        if type_check.in_light_mode():
            # Plain-Python version of the conditions below (the hot path).
            if len(in_types) == 1:
                shape = in_types[0].shape
                if -len(shape) <= self.axis < len(shape):
                    if self.indices is not None:
                        if len(self.indices) == 0 or shape[self.axis] >= self.indices[-1]:
                            return
                    elif shape[self.axis] % self.sections == 0:
                        return
            raise type_check.InvalidType('', '')
        type_check.expect(in_types.size() == 1)
        type_check.expect(in_types[0].ndim > self.axis)
        if self.axis < 0:
            type_check.expect(-in_types[0].ndim <= self.axis)
        if self.indices is not None:
            if len(self.indices) > 0:
                max_index = type_check.make_variable(self.indices[-1], 'max_index')
                type_check.expect(in_types[0].shape[self.axis] >= max_index)
        else:
            sections = type_check.make_variable(self.sections, 'sections')
            type_check.expect(in_types[0].shape[self.axis] % sections == 0)

    def forward(self, inputs):
        x, = inputs
        self._xp = backend.get_array_module(x)
        axis = self.axis % x.ndim
        n = x.shape[axis]
        if self.indices is None:
            step = n // self.sections
            bounds = list(range(0, n + 1, step)) if step else [0] * (self.sections + 1)
        else:
            bounds = [0] + [int(i) for i in self.indices] + [n]
        # Slicing gives the same views as numpy.split, without its overhead.
        lead = (slice(None),) * axis
        ys = tuple(x[lead + (slice(bounds[i], bounds[i + 1]),)]
                   for i in range(len(bounds) - 1))
        self._shapes = [y.shape for y in ys]
        return ys

    def backward(self, indexes, grad_outputs):
        dtype = self.inputs[0].dtype
        xp = self._xp
        grads = [xp.zeros(shape, dtype=dtype) if gy is None else gy
                 for gy, shape in zip(grad_outputs, self._shapes)]
        return concat.concat(grads, self.axis),


def split_axis(x, indices_or_sections, axis, force_tuple=True):
    """Split `x` along `axis`.

    Args:
        x (Variable or numpy.ndarray): Variable to split.
        indices_or_sections (int or 1-D sequence of int): `N` splits into `N` equal
            parts (`x.shape[axis]` must be divisible by it); a sorted sequence gives
            the split points.
        axis (int): The axis to split along.
        force_tuple (bool): When False and there is one output, return it alone.

    Returns:
        tuple of Variable, or one Variable (see `force_tuple`).
    """
    res = SplitAxis(indices_or_sections, axis).apply((x,))
    if force_tuple or len(res) != 1:
        return res
    return res[0]
