"""Argument checks and parameter set-up shared by the connection links (`Linear`, the
convolutions)."""
import numpy

from minichainer import initializers
from minichainer import variable
from minichainer.links._check import check_size
from minichainer.functions.connection import convolution_engine


def init_weight_and_bias(link, initialW, in_size, nobias, initial_bias, bias_size,
                         bias_shape_owner=None):
    """Register `link.W` and `link.b` inside `link.init_scope()`.

    `W` is initialized at once through `link._initialize_params(in_size)` when
    `in_size` is known (else on the first forward); `b` has `bias_size`
    elements (`initial_bias` defaults to 0), or is None when `nobias`.

    Raises:
        ValueError: with `bias_shape_owner` given (the link's name), an array
            `initial_bias` whose shape is not `(bias_size,)`.
    """
    with link.init_scope():
        link.W = variable.Parameter(initializers.get_initializer(initialW))
        if in_size is not None:
            link._initialize_params(in_size)
        if nobias:
            link.b = None
        else:
            if (bias_shape_owner is not None and isinstance(initial_bias, numpy.ndarray)
                    and initial_bias.shape != (bias_size,)):
                raise ValueError('{}: initial_bias must have shape ({},), got {}'.format(
                    bias_shape_owner, bias_size, initial_bias.shape))
            if initial_bias is None:
                initial_bias = 0
            link.b = variable.Parameter(
                initializers.get_initializer(initial_bias), bias_size)


def check_groups(owner, name, channels, groups):
    """Raise ValueError unless `channels` (the argument `name`) divides by `groups`."""
    if channels % groups != 0:
        raise ValueError('{}: {} ({}) must be divisible by groups ({})'.format(
            owner, name, channels, groups))


def bias_from_params(owner, b, out_channels):
    """`b` given to `from_params` as an array (None stays None).

    Raises:
        ValueError: `b` does not have `out_channels` elements.
    """
    if b is not None:
        b = variable.as_array(b)
        if b.size != out_channels:
            raise ValueError('{}: b must have {} elements (out_channels), got {}'.format(
                owner, out_channels, b.size))
    return b


def check_args(owner, ndim, ksize, stride, pad, dilate=1, groups=1):
    """Raise ValueError, naming the argument and its value, for a non-positive
    `ksize`/`stride`/`dilate`/`groups` or a negative `pad` of a convolution link
    (at construction; Chainer fails later, or with a ZeroDivisionError)."""
    if ksize is not None:
        convolution_engine.as_ints(owner, 'ksize', ksize, ndim, 1)
    convolution_engine.parse_params(owner, ndim, stride, pad, dilate, groups)


def as_tuple(x, n):
    """`x` as a tuple of `n` values (a sequence must have length `n`; a scalar is
    repeated)."""
    if hasattr(x, '__getitem__'):
        if len(x) != n:
            raise ValueError('expected a tuple of length {}, got {!r}'.format(n, x))
        return tuple(x)
    return (x,) * n


def setup_nd(link, ndim, in_channels, out_channels, ksize, stride, pad, dilate, groups):
    """The shared set-up of `ConvolutionND`/`DeconvolutionND`: with `ksize` None the
    channel arguments are `(out_channels, ksize)`; checks the arguments and sets
    `ndim`, `out_channels`, `ksize`, `stride`, `pad`, `dilate`, `groups` on `link`.

    Returns:
        tuple: `(in_channels, out_channels)` (in_channels None when inferred).
    """
    if ksize is None:
        out_channels, ksize, in_channels = in_channels, out_channels, None
    check_args(type(link).__name__, ndim, ksize, stride, pad, dilate, groups)
    link.ndim = ndim
    link.out_channels = out_channels
    link.ksize = as_tuple(ksize, ndim)
    link.stride = stride
    link.pad = pad
    link.dilate = as_tuple(dilate, ndim)
    link.groups = int(groups)
    return in_channels, out_channels


def construct_nd(cls, nd_cls, ksize, args):
    """`cls(*args)` for an N-d `from_params`, with `ndim` (from `ksize`) put first
    when `cls` keeps the constructor of `nd_cls` (which takes `ndim`)."""
    if cls.__init__ is nd_cls.__init__:
        args = (len(ksize),) + args
    return cls(*args)


def setup_2d(link, owner, in_channels, out_channels, ksize, stride, pad, kwargs):
    """The shared set-up of `Convolution2D`/`Deconvolution2D`: reads `dilate` and
    `groups` from `kwargs`; with `ksize` None the channel arguments are
    `(out_channels, ksize)`; checks the arguments and sets `in_channels`, `ksize`,
    `stride`, `pad` and `dilate` on `link`.

    Returns:
        tuple: `(in_channels, out_channels, groups)` (in_channels None when inferred).
    """
    dilate, groups = parse_conv_kwargs(kwargs, owner)
    if ksize is None:
        out_channels, ksize, in_channels = in_channels, out_channels, None
    check_args(owner, 2, ksize, stride, pad, dilate, groups)
    check_size(owner, 'in_channels', in_channels, allow_none=True)
    check_size(owner, 'out_channels', out_channels)
    link.in_channels = in_channels
    link.ksize = ksize
    link.stride = pair(stride)
    link.pad = pair(pad)
    link.dilate = pair(dilate)
    return in_channels, out_channels, groups


def pair(x):
    """`x` if it is a sequence, else `(x, x)`."""
    if hasattr(x, '__getitem__'):
        return x
    return x, x


def parse_conv_kwargs(kwargs, owner):
    """`(dilate, groups)` from the keywords of a 2-D convolution link; no others
    allowed (`deterministic` is Chainer's removed argument)."""
    if 'deterministic' in kwargs:
        raise ValueError(
            "{}: the deterministic argument is not supported anymore; use "
            "minichainer.using_config('cudnn_deterministic', value)".format(owner))
    dilate = kwargs.pop('dilate', 1)
    groups = kwargs.pop('groups', 1)
    if kwargs:
        raise TypeError('{}() got unexpected keyword argument(s): {}'.format(
            owner, ', '.join(sorted(kwargs))))
    return dilate, groups


def from_params_kwargs(cls, kwargs):
    """`(dilate, groups)` from the keywords of an N-d `from_params`; no others allowed."""
    dilate = kwargs.pop('dilate', 1)
    groups = kwargs.pop('groups', 1)
    if kwargs:
        raise TypeError('{}.from_params() got unexpected keyword argument(s): {}'.format(
            cls.__name__, ', '.join(sorted(kwargs))))
    return dilate, groups


def check_channel_groups(owner, in_channels, out_channels, groups):
    """Raise ValueError unless `groups` divides both channel counts (out_channels
    checked first)."""
    check_groups(owner, 'out_channels', out_channels, groups)
    check_groups(owner, 'in_channels', in_channels, groups)
