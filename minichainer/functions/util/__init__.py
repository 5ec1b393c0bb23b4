"""Utility functions (``chainer.functions.util``)."""
from minichainer.functions.util._module_alias import alias_modules as _alias_modules
from minichainer.functions.util.forget import Forget  # NOQA
from minichainer.functions.util.forget import forget  # NOQA

__all__ = ['forget']

# ``from minichainer.functions.util import <module>`` style access (see _module_alias)
_alias_modules(globals(), __all__)
del _alias_modules
