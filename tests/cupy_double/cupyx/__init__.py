"""The CuPy test double's `cupyx` module: scatter_add/max/min, rsqrt, errstate,
allow_synchronize (the host-transfer guard) and `cupyx.scipy.special`."""
import contextlib

import numpy

from ..cupy import _core
from ..cupy._core import DeviceSynchronized  # noqa: F401
from ..cupy._core import ufunc as _ufunc
from . import scipy  # noqa: F401


def scatter_add(a, slices, value):
    a.scatter_add(slices, value)


def scatter_max(a, slices, value):
    a.scatter_max(slices, value)


def scatter_min(a, slices, value):
    a.scatter_min(slices, value)


class _RSqrt(_ufunc):
    def __init__(self):
        super().__init__(numpy.sqrt, 'rsqrt')

    def __call__(self, x, out=None, dtype=None, **kwargs):
        r = 1 / numpy.sqrt(_core.operand(x))
        if dtype is not None:
            r = r.astype(dtype)
        if out is not None:
            o = _core._out(out)
            o._a[...] = r
            return o
        return _core.wrap_result(r)


rsqrt = _RSqrt()
errstate = numpy.errstate
seterr = numpy.seterr
geterr = numpy.geterr


@contextlib.contextmanager
def allow_synchronize(allow):
    """Allow or forbid device-to-host copies in this thread (they raise
    `DeviceSynchronized` while forbidden), as `cupyx.allow_synchronize`."""
    old = _core.sync_allowed()
    _core.set_sync_allowed(allow)
    try:
        yield
    finally:
        _core.set_sync_allowed(old)


def get_runtime_info(full=True):
    return 'CuPy test double (NumPy {} on the CPU)'.format(numpy.__version__)
