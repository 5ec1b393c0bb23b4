"""Argument and input-type checks shared by the function families (losses, noise,
connections), each raising Chainer's own message."""
import numpy

from minichainer import configuration
from minichainer.utils import type_check


def values_checked(xp):
    """True when a function checks the values of its inputs (label or index ranges):
    always on NumPy arrays, on CuPy arrays only in debug mode (`config.debug`), as in
    Chainer, because reading a device array's values back to the host stalls the GPU."""
    return xp is numpy or configuration.config.debug


def reduce_option(reduce, valid):
    """Return `reduce` if it is one of `valid`, else raise Chainer's ValueError.

    The message reads `only 'mean' and 'no' are valid for 'reduce', but 'x' is given`.
    """
    if reduce not in valid:
        names = ["'%s'" % name for name in valid]
        raise ValueError('only %s and %s are valid for \'reduce\', but \'%s\' is given'
                         % (', '.join(names[:-1]), names[-1], reduce))
    return reduce


def positive_margin(margin):
    """Return `margin` if it is positive, else raise Chainer's ValueError."""
    if margin <= 0:
        raise ValueError('margin should be positive value.')
    return margin


def expect_same_float_pair(in_types, names):
    """Type-check two inputs (named `names`) of one float dtype and one shape."""
    type_check.argname(in_types, names)
    a_type, b_type = in_types
    type_check.expect(
        a_type.dtype.kind == 'f',
        a_type.dtype == b_type.dtype,
        a_type.shape == b_type.shape,
    )


def expect_x_W(in_types):
    """Type-check the head of `(x, W[, b])`: two or three inputs, `x` and `W` of
    a float dtype (linear, dropconnect and the convolutions).

    Returns:
        tuple: `(n_in, x_type, w_type)` for the function's own shape checks.
    """
    n_in = in_types.size()
    type_check.expect(2 <= n_in, n_in <= 3)
    x_type, w_type = in_types[:2]
    type_check.argname((x_type, w_type), ('x', 'W'))
    type_check.expect(
        x_type.dtype.kind == 'f',
        w_type.dtype.kind == 'f',
    )
    return n_in, x_type, w_type


def expect_bias(in_types, n_in, x_type, out_size, same_dtype=True):
    """Type-check the optional third input `b`: 1-D with `out_size` elements, of
    `x`'s dtype when `same_dtype`, else of any float dtype."""
    if type_check.eval(n_in) == 3:
        b_type = in_types[2]
        type_check.argname((b_type,), ('b',))
        type_check.expect(
            b_type.dtype == x_type.dtype if same_dtype else b_type.dtype.kind == 'f',
            b_type.ndim == 1,
            b_type.shape[0] == out_size,
        )
