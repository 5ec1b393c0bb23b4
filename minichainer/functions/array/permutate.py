"""Permuting an array along an axis (`chainer.functions.permutate`)."""
import numpy

from minichainer import backend
from minichainer import function_node
from minichainer import variable
from minichainer.functions.util import checks
from minichainer.utils import type_check


def _check_indices(indices):
    n = len(indices)
    if n == 0:
        return
    indices = backend.CpuDevice().send(indices)   # (on a GPU only in debug mode)
    bad = indices[(indices < 0) | (indices >= n)]
    if bad.size:
        raise ValueError('permutate: out of bounds index: {} (indices must be a '
                         'permutation of 0..{})'.format(int(bad[0]), n - 1))
    counts = numpy.bincount(indices, minlength=n)
    if (counts > 1).any():
        raise ValueError('permutate: indices contains duplicate value: {}'.format(
            int(numpy.argmax(counts > 1))))


def _inverse_indices(indices):
    xp = backend.get_array_module(indices)
    r = xp.empty_like(indices)
    r[indices] = xp.arange(len(indices), dtype=indices.dtype)
    return r


class Permutate(function_node.FunctionNode):
    """Permute an array along an axis by an index array."""

    def __init__(self, indices, axis, inv):
        self.indices = indices
        self.axis = axis
        self.inv = inv

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x',))
        x_type, = in_types
        if self.axis < 0:
            type_check.expect(x_type.ndim >= -self.axis)
        else:
            type_check.expect(x_type.ndim > self.axis)

    def forward(self, inputs):
        x, = inputs
        indices = self.indices
        if self.inv:
            indices = _inverse_indices(indices)
        return x[(slice(None),) * (self.axis % x.ndim) + (indices,)],

    def backward(self, indexes, grad_outputs):
        return Permutate(self.indices, self.axis, not self.inv).apply(grad_outputs)


def permutate(x, indices, axis=0, inv=False):
    """Permute `x` along `axis`: `y[..., i, ...] = x[..., indices[i], ...]`.

    Deliberate differences: `indices` of NumPy arrays is always checked to be a
    permutation (Chainer checks only in debug mode; so does minichainer for CuPy
    arrays), and a negative `axis` counts from the end (Chainer 7
    permutes axis 0 then).

    Args:
        x (Variable or numpy.ndarray): Input variable.
        indices (Variable or numpy.ndarray): 1-D int permutation of
            `range(x.shape[axis])`.
        axis (int): The axis to permute.
        inv (bool): Apply the inverse permutation instead.

    Returns:
        Variable: The permuted variable.

    Raises:
        ValueError: when `indices` is not a 1-D int permutation.
    """
    if indices.dtype.kind != 'i' or indices.ndim != 1:
        raise ValueError('indices should be a one-dimensional int array, got dtype {} '
                         'and ndim {}'.format(indices.dtype, indices.ndim))
    if isinstance(indices, variable.Variable):
        indices = indices.array
    if checks.values_checked(backend.get_array_module(indices)):
        _check_indices(indices)
    y, = Permutate(indices, axis, inv).apply((x,))
    return y
