"""Differentiable functions (``chainer.functions``, usually imported as ``F``)."""
import importlib as _importlib

_SUBPACKAGES = ('activation', 'array', 'connection', 'evaluation', 'loss', 'math', 'noise',
                'normalization', 'pooling', 'util')


def _import_all():
    g = globals()
    for name in _SUBPACKAGES:
        try:
            module = _importlib.import_module('minichainer.functions.' + name)
        except ModuleNotFoundError as e:
            if e.name == 'minichainer.functions.' + name:
                continue  # a family that is not written yet
            raise
        for attr in getattr(module, '__all__', ()):
            g[attr] = getattr(module, attr)


_import_all()

# The core functions are importable from here even before the families' __init__ exist.
from minichainer.functions.array.broadcast import broadcast, broadcast_to  # noqa: E402,F401
from minichainer.functions.array.get_item import get_item  # noqa: E402,F401
from minichainer.functions.array.reshape import reshape  # noqa: E402,F401
from minichainer.functions.array.transpose import transpose  # noqa: E402,F401
from minichainer.functions.math.basic_math import absolute  # noqa: E402,F401
from minichainer.functions.math.matmul import batch_matmul, matmul  # noqa: E402,F401
from minichainer.functions.math.square import square  # noqa: E402,F401
from minichainer.functions.math.sum import sum, sum_to  # noqa: E402,F401,A004
