"""Stand-in for the `chainerx` package: ChainerX is not available in minichainer.

Mirrors what Chainer's own `chainerx` package exposes when its C++ core is not built:
`is_available()` returns False and `ndarray` is a dummy class for `isinstance` tests.
Any other attribute raises an `AttributeError` that names the missing ChainerX feature.
"""
import importlib.machinery
import types

_MESSAGE = ('chainerx.{} is not available: minichainer has no ChainerX backend '
            '(chainerx.is_available() is False); use NumPy arrays on the \'@numpy\' device')


class ndarray:
    """Dummy ChainerX array type; no instance can exist (for `isinstance` checks)."""

    def __init__(self, *args, **kwargs):
        raise RuntimeError('chainerx is not available: minichainer has no ChainerX backend')


def is_available():
    """Return False: ChainerX is never available in minichainer."""
    return False


def _getattr(name):
    if name.startswith('__') and name.endswith('__'):
        raise AttributeError(name)
    raise AttributeError(_MESSAGE.format(name))


def make_module(name='chainerx'):
    """Build a fresh `chainerx` stub module object."""
    module = types.ModuleType(name, __doc__)
    # a spec, so that importlib.util.find_spec('chainerx') works once it is in sys.modules
    module.__spec__ = importlib.machinery.ModuleSpec(name, None, origin=__name__)
    module.ndarray = ndarray
    module.is_available = is_available
    module._available = False
    module.__getattr__ = _getattr
    module.__all__ = ['ndarray', 'is_available']
    return module


_module = make_module()


def get_module():
    """Return the process-wide `chainerx` stub module."""
    return _module
