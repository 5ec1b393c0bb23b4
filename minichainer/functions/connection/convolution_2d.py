"""Two-dimensional convolution: the 2-D face of the N-d engine in `convolution_engine`."""
from minichainer.functions.connection import convolution_engine as engine
from minichainer.utils import argument
from minichainer.utils.conv import ConvolutionShapeError  # noqa: F401

# Chainer's private helper of this module (tuples from an int or a pair)
_pair = engine.as_pair


class Convolution2DFunction(engine.TwoDAttributes, engine.ConvolutionND):
    """FunctionNode of
    [`convolution_2d`][minichainer.functions.connection.convolution_2d.convolution_2d] (the N-d
    engine with `ndim=2`; the bias must have `x`'s dtype, as in Chainer)."""

    _owner = 'convolution_2d'
    _bias_same_dtype = True

    def __init__(self, stride=1, pad=0, cover_all=False, **kwargs):
        dilate, groups = argument.parse_kwargs(
            kwargs, ('dilate', 1), ('groups', 1),
            deterministic=engine.DETERMINISTIC_MSG, requires_x_grad=engine.REQUIRES_X_GRAD_MSG)
        super().__init__(2, stride, pad, cover_all, dilate, groups)


Convolution2DGradW = engine.ConvolutionNDGradW


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
        deterministic=engine.DETERMINISTIC_MSG)
    engine.parse_params('convolution_2d', 2, stride, pad, dilate, groups, x.shape)
    fnode = Convolution2DFunction(stride, pad, cover_all, dilate=dilate, groups=groups)
    if b is None:
        args = x, W
    else:
        args = x, W, b
    y, = fnode.apply(args)
    return y
