"""Base class of the 2-D pooling functions."""
import collections.abc

from minichainer import function_node
from minichainer.utils import type_check


def _pair(x):
    # Chainer's pooling tests iterability (its convolutions test `__getitem__`), so a
    # NumPy integer, which has `__getitem__` but is not iterable, is one value here
    if isinstance(x, collections.abc.Iterable):
        return x
    return x, x


class Pooling2D(function_node.FunctionNode):
    """Base class of pooling function over a set of 2d planes.

    Besides Chainer's `kh, kw, sy, sx, ph, pw` it exposes the N-D view of the same
    window (`ndim = 2`, `ksize`, `stride`, `pad` tuples) that the shared pooling
    engine reads.
    """

    ndim = 2

    def __init__(self, ksize, stride=None, pad=0, cover_all=True, return_indices=False):
        if stride is None:
            stride = ksize
        self.kh, self.kw = _pair(ksize)
        self.sy, self.sx = _pair(stride)
        self.ph, self.pw = _pair(pad)
        self.cover_all = cover_all
        self.return_indices = return_indices
        self._used_cudnn = False

    @property
    def ksize(self):
        return self.kh, self.kw

    @property
    def stride(self):
        return self.sy, self.sx

    @property
    def pad(self):
        return self.ph, self.pw

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x',))
        x_type = in_types[0]
        type_check.expect(
            x_type.dtype.kind == 'f',
            x_type.ndim == 4,
        )
