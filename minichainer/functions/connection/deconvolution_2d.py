"""Two-dimensional deconvolution: the 2-D face of the N-d engine in `convolution_engine`."""
from minichainer.functions.connection import convolution_engine as engine
from minichainer.utils import argument

# Chainer's private helper of this module (tuples from an int or a pair)
_pair = engine.as_pair


class Deconvolution2DFunction(engine.TwoDAttributes, engine.DeconvolutionND):
    """FunctionNode of
    [`deconvolution_2d`][minichainer.functions.connection.deconvolution_2d.deconvolution_2d] (the
    N-d engine with `ndim=2`; the bias must have `x`'s dtype, as in Chainer). `outh`/`outw` are
    the output size, None until the first forward when `outsize` is not given."""

    _owner = 'deconvolution_2d'
    _bias_same_dtype = True

    def __init__(self, stride=1, pad=0, outsize=None, **kwargs):
        dilate, groups = argument.parse_kwargs(
            kwargs, ('dilate', 1), ('groups', 1),
            deterministic=engine.DETERMINISTIC_MSG,
            requires_x_grad=engine.REQUIRES_X_GRAD_MSG)
        super().__init__(2, stride, pad, outsize, dilate, groups)

    @property
    def outh(self):
        return None if self.outs is None else self.outs[0]

    @property
    def outw(self):
        return None if self.outs is None else self.outs[1]


def deconvolution_2d(x, W, b=None, stride=1, pad=0, outsize=None, **kwargs):
    """deconvolution_2d(x, W, b=None, stride=1, pad=0, outsize=None, *, dilate=1, groups=1)

    Two-dimensional deconvolution (transposed convolution) of `x` (n, c_I, h, w)
    with `W` (c_I, c_O / groups, kh, kw) and optional bias `b` (c_O,).

    The output size is `outsize` or `s * (h - 1) + kh' - 2 * p` per axis.

    Raises:
        ValueError: a non-positive `stride`/`dilate`/`groups` or kernel size, a
            negative `pad`, `groups` not dividing the channels, or a non-positive
            output size (also a `RuntimeError`, as Chainer raises there).
    """
    argument.check_unexpected_kwargs(
        kwargs, deterministic=engine.DETERMINISTIC_MSG)
    dilate, groups = argument.parse_kwargs(kwargs, ('dilate', 1), ('groups', 1))
    engine.parse_params('deconvolution_2d', 2, stride, pad, dilate, groups, x.shape)
    func = Deconvolution2DFunction(stride, pad, outsize, dilate=dilate, groups=groups)
    if b is None:
        args = x, W
    else:
        args = x, W, b
    y, = func.apply(args)
    return y
