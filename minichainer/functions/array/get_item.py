"""Indexing of Variables (basic and advanced), with scatter-add in backward."""
import numpy

from minichainer import backend
from minichainer.configuration import config as _config
from minichainer import utils
from minichainer.function_node import FunctionNode
from minichainer.utils import scatter
from minichainer.utils import type_check
from minichainer.variable import Variable

_BASIC = (int, slice, type(None), type(Ellipsis), numpy.integer)


def _normalize_slices(slices):
    if isinstance(slices, list):
        if all(isinstance(s, (int, numpy.integer)) for s in slices):
            slices = (slices,)
        slices = tuple(slices)
    elif not isinstance(slices, tuple):
        slices = (slices,)
    return tuple(s.array if isinstance(s, Variable) else s for s in slices)


class GetItem(FunctionNode):
    """`x[slices]`: int, slice, None, Ellipsis, integer/boolean arrays or tuples of them."""

    def __init__(self, slices):
        self.slices = _normalize_slices(slices)
        if _config.debug and sum(1 for s in self.slices if s is Ellipsis) > 1:
            raise ValueError('get_item: only one Ellipsis is allowed in slices')
        self._basic = all(isinstance(s, _BASIC) and not isinstance(s, bool)
                          for s in self.slices)

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x',))

    def forward(self, xs):
        return utils.force_array(xs[0][self.slices]),

    def backward(self, indexes, gy):
        return GetItemGrad(self.slices, self.inputs[0].shape, self._basic).apply(gy)


class GetItemGrad(FunctionNode):
    """Scatter `gy` into zeros of the input shape (adding where indices repeat)."""

    def __init__(self, slices, in_shape, basic=None):
        self.slices = slices
        self._in_shape = in_shape
        if basic is None:
            basic = all(isinstance(s, _BASIC) and not isinstance(s, bool) for s in slices)
        self._basic = basic

    def forward(self, inputs):
        gy, = inputs
        xp = backend.get_array_module(gy)
        gx = xp.zeros(self._in_shape, gy.dtype)
        if self._basic:
            gx[self.slices] = gy
        else:
            scatter.scatter_add(gx, self.slices, gy)
        return gx,

    def backward(self, indexes, ggx):
        return GetItem(self.slices).apply(ggx)


def get_item(x, slices):
    """Extract elements of `x` as `x.array[slices]` does, differentiably."""
    return GetItem(slices).apply((x,))[0]
