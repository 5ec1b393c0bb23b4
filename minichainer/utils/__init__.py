"""Utilities (`chainer.utils`)."""
import collections.abc as collections_abc  # noqa: F401 (chainer.utils.collections_abc)
import contextlib
import shutil
import tempfile

import numpy

from minichainer import backend

from minichainer.utils import argument  # noqa: F401
from minichainer.utils import array  # noqa: F401
from minichainer.utils import type_check  # noqa: F401


_host_values = (numpy.generic, float, int, complex, list, tuple)


def force_array(x, dtype=None):
    """Return `x` as an ndarray (NumPy turns 0-d results into scalars; this undoes it).

    Scalars and lists become arrays; an object NumPy could only box in an object array (a
    Variable, as a backward written with Variables gives; None) is returned as it is, as in
    Chainer.
    """
    if isinstance(x, numpy.ndarray):
        if dtype is None:
            return x
        return x.astype(dtype, copy=False)
    if not isinstance(x, _host_values) and isinstance(x, backend.get_array_types()):
        # a device (CuPy) array: stays where it is (CuPy gives 0-d arrays, not scalars)
        return x if dtype is None else x.astype(dtype, copy=False)
    if dtype is None:
        array = numpy.array(x)
        return x if array.dtype.kind == 'O' else array
    return numpy.array(x, dtype)


def force_type(dtype, value):
    """Cast `value` to `dtype` when its dtype differs."""
    if numpy.isscalar(value):
        return dtype.type(value)
    if value.dtype != dtype:
        return value.astype(dtype, copy=False)
    return value


def size_of_shape(shape):
    """Number of elements of an array of the given shape."""
    size = 1
    for n in shape:
        size *= n
    return int(size)


def _raise_from(exc_type, message, orig_exc):
    raise exc_type('{} ({}: {})'.format(message, type(orig_exc).__name__, orig_exc)) \
        from orig_exc


@contextlib.contextmanager
def tempdir(**kwargs):
    """Context manager: a new temporary directory (`tempfile.mkdtemp(**kwargs)`),
    removed with its contents on exit (`ignore_errors=True` ignores removal errors)."""
    ignore_errors = kwargs.pop('ignore_errors', False)
    path = tempfile.mkdtemp(**kwargs)
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=ignore_errors)


def get_array_module(*args):
    return backend.get_array_module(*args)


from minichainer.utils.sparse import CooMatrix, get_order, to_coo  # noqa: E402,F401
from minichainer.utils.array import sum_to  # noqa: E402,F401
from minichainer.utils.conv import get_conv_outsize, get_deconv_outsize  # noqa: E402,F401
from minichainer.utils.error import _format_array_props  # noqa: E402,F401
from minichainer.utils.experimental import experimental  # noqa: E402,F401
from minichainer.utils.meta import enable_final, final  # noqa: E402,F401
from minichainer.utils.nondeterministic import nondeterministic  # noqa: E402,F401
from minichainer.utils.walker_alias import WalkerAlias  # noqa: E402,F401
