"""Noise injection functions (``chainer.functions.noise``)."""
from minichainer.functions.util._module_alias import alias_modules as _alias_modules
from minichainer.functions.noise.dropout import Dropout  # NOQA
from minichainer.functions.noise.dropout import dropout  # NOQA
from minichainer.functions.noise.gaussian import Gaussian  # NOQA
from minichainer.functions.noise.gaussian import gaussian  # NOQA
from minichainer.functions.noise.gumbel_softmax import gumbel_softmax  # NOQA
from minichainer.functions.noise.simplified_dropconnect import SimplifiedDropconnect  # NOQA
from minichainer.functions.noise.simplified_dropconnect import simplified_dropconnect  # NOQA
from minichainer.functions.noise.zoneout import Zoneout  # NOQA
from minichainer.functions.noise.zoneout import zoneout  # NOQA

__all__ = ['dropout', 'gaussian', 'gumbel_softmax', 'simplified_dropconnect', 'zoneout']

# ``from minichainer.functions.noise import <module>`` style access (see _module_alias)
_alias_modules(globals(), __all__)
del _alias_modules
