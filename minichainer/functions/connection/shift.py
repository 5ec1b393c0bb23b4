"""Shift: a parameter-free, multiply-free replacement of a spatial convolution."""
import numbers

from minichainer import backend
from minichainer import function_node
from minichainer.utils import type_check


def _pair(x):
    if hasattr(x, '__getitem__'):
        return x
    return x, x


def _shift_plan(c, kh, kw):
    """Per channel group, `(c_start, c_end, ky, kx)` with `y[r, q] = x[r - ky*dy, q - kx*dx]`.

    The `kh * kw` groups have `c // (kh * kw)` channels each, the last one also taking
    the remainder. Group `g` moves by the kernel offset of cell `g` of the `kh x kw`
    window measured from its centre, except that the middle group and the last one trade
    cells, so the unshifted (centre) cell belongs to the last group, as in Chainer.
    """
    n_groups = kh * kw
    size = c // n_groups
    middle = (n_groups - 1) // 2
    plan = []
    for i in range(n_groups):
        cell = i
        if i == middle:
            cell = n_groups - 1
        elif i == n_groups - 1:
            cell = middle
        end = (i + 1) * size if i < n_groups - 1 else c
        plan.append((i * size, end, cell // kw - kh // 2, cell % kw - kw // 2))
    return plan


def _shifted_bounds(n, step):
    """Output and input index ranges of an axis of length `n` moved by `step`."""
    if step >= 0:
        return slice(min(step, n), n), slice(0, max(n - step, 0))
    return slice(0, max(n + step, 0)), slice(min(-step, n), n)


class Shift(function_node.FunctionNode):
    """FunctionNode of [`shift`][minichainer.functions.connection.shift.shift]; its backward is a
    shift with negated dilation."""

    def __init__(self, ksize=3, dilate=1):
        self.kh, self.kw = (int(k) for k in _pair(ksize))
        if self.kh % 2 != 1:
            raise ValueError('kh must be odd')
        if self.kw % 2 != 1:
            raise ValueError('kw must be odd')
        dy, dx = _pair(dilate)
        for name, d in (('dilate[0]', dy), ('dilate[1]', dx)):
            if not isinstance(d, numbers.Integral) or d == 0:
                raise ValueError(
                    'shift: {} must be a nonzero int, got {!r}'.format(name, d))
        self.dy, self.dx = int(dy), int(dx)

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x',))
        x_type, = in_types
        type_check.expect(
            x_type.dtype.kind == 'f',
            x_type.ndim == 4,
            x_type.shape[1] >= self.kh * self.kw,
        )

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        _, c, h, w = x.shape
        y = xp.zeros(x.shape, x.dtype)
        for c0, c1, ky, kx in _shift_plan(c, self.kh, self.kw):
            oy, iy = _shifted_bounds(h, ky * self.dy)
            ox, ix = _shifted_bounds(w, kx * self.dx)
            y[:, c0:c1, oy, ox] = x[:, c0:c1, iy, ix]
        return y,

    def backward(self, indexes, grad_outputs):
        return Shift((self.kh, self.kw), (-self.dy, -self.dx)).apply(grad_outputs)


def shift(x, ksize=3, dilate=1):
    """Shift operation of
    [Shift: A Zero FLOP, Zero Parameter Alternative to Spatial Convolutions](https://arxiv.org/abs/1711.08141).

    The channels of `x` are split into `kh * kw` groups (`c // (kh * kw)` channels
    each, the last group also taking the remaining channels); every group is translated
    spatially by one cell offset of a `kh x kw` window (times `dilate`), filling with
    zeros, and the last group is the one left in place.

    Args:
        x (Variable or ndarray): input of shape (n, c, h, w), `c >= kh * kw`.
        ksize (int or pair of ints): odd window size `(kh, kw)`.
        dilate (int or pair of ints): distance between window cells (nonzero).

    Returns:
        Variable: output of the shape of `x`.

    Raises:
        ValueError: an even `ksize` or a zero/non-int `dilate`.
        InvalidType: `x` is not a 4-D float array with at least `kh * kw` channels.
    """
    y, = Shift(ksize, dilate).apply((x,))
    return y
