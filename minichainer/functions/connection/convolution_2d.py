"""Two-dimensional convolution: the 2-D face of the N-d engine in `convolution_nd`."""
from minichainer.functions.connection import convolution_nd as _engine
from minichainer.functions.connection.convolution_nd import _check_x_W_types  # noqa: F401
from minichainer.functions.connection.convolution_nd import ConvolutionShapeError  # noqa: F401,E501
from minichainer.utils import argument

_deterministic_msg = (
    "deterministic argument is not supported anymore. "
    "Use chainer.using_config('cudnn_deterministic', value) context "
    "where value is either `True` or `False`.")
_requires_x_grad_msg = (
    "requires_x_grad argument is not supported anymore. Just remove the argument. "
    "Note that whether to compute the gradient w.r.t. x is automatically decided "
    "during backpropagation.")


def _pair(x):
    if hasattr(x, '__getitem__'):
        return x
    return x, x


class _TwoD(object):
    """Chainer's 2-D attribute names (`sy, sx, ph, pw, dy, dx`) over the N-d tuples."""

    sy = property(lambda self: self.stride[0])
    sx = property(lambda self: self.stride[1])
    ph = property(lambda self: self.pad[0])
    pw = property(lambda self: self.pad[1])
    dy = property(lambda self: self.dilate[0])
    dx = property(lambda self: self.dilate[1])


class Convolution2DFunction(_TwoD, _engine.ConvolutionND):
    """FunctionNode of
    [`convolution_2d`][minichainer.functions.connection.convolution_2d.convolution_2d] (the N-d
    engine with `ndim=2`; the bias must have `x`'s dtype, as in Chainer)."""

    _owner = 'convolution_2d'
    _bias_same_dtype = True

    def __init__(self, stride=1, pad=0, cover_all=False, **kwargs):
        dilate, groups = argument.parse_kwargs(
            kwargs, ('dilate', 1), ('groups', 1),
            deterministic=_deterministic_msg, requires_x_grad=_requires_x_grad_msg)
        super().__init__(2, stride, pad, cover_all, dilate, groups)


Convolution2DGradW = _engine.ConvolutionNDGradW
_COL_CACHE_MAX_BYTES = _engine._COL_CACHE_MAX_BYTES


def convolution_2d(x, W, b=None, stride=1, pad=0, cover_all=False, **kwargs):
    """convolution_2d(x, W, b=None, stride=1, pad=0, cover_all=False, *, dilate=1, groups=1)

    Two-dimensional convolution (cross-correlation) of `x` (n, c, h, w) with filters
    `W` (c_O, c / groups, kh, kw) plus optional bias `b` (c_O,).

    Returns:
        Variable: output of shape (n, c_O, h_O, w_O) with
        `h_O = (h + 2 * ph - kh') // sy + 1` (`kh' = kh + (kh - 1) * (dy - 1)`).

    Raises:
        ValueError: a non-positive `stride`/`dilate`/`groups` or kernel size, a
            negative `pad`, a kernel larger than the padded input, or `groups` not
            dividing the channels (the message names the argument, its value and the
            input shape).
    """
    dilate, groups = argument.parse_kwargs(
        kwargs, ('dilate', 1), ('groups', 1),
        deterministic=_deterministic_msg)
    _engine._parse_params('convolution_2d', 2, stride, pad, dilate, groups, x.shape)
    fnode = Convolution2DFunction(stride, pad, cover_all, dilate=dilate, groups=groups)
    if b is None:
        args = x, W
    else:
        args = x, W, b
    y, = fnode.apply(args)
    return y
