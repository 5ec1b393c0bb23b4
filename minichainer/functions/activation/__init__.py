"""Activation functions (``chainer.functions.activation``), plus ``lstm``/``slstm``."""
from minichainer.functions.util._module_alias import alias_modules as _alias_modules
from minichainer.functions.activation.clipped_relu import ClippedReLU  # NOQA
from minichainer.functions.activation.clipped_relu import clipped_relu  # NOQA
from minichainer.functions.activation.clipped_relu import relu6  # NOQA
from minichainer.functions.activation.crelu import CReLU  # NOQA
from minichainer.functions.activation.crelu import crelu  # NOQA
from minichainer.functions.activation.elu import ELU  # NOQA
from minichainer.functions.activation.elu import elu  # NOQA
from minichainer.functions.activation.hard_sigmoid import HardSigmoid  # NOQA
from minichainer.functions.activation.hard_sigmoid import hard_sigmoid  # NOQA
from minichainer.functions.activation.leaky_relu import LeakyReLU  # NOQA
from minichainer.functions.activation.leaky_relu import leaky_relu  # NOQA
from minichainer.functions.activation.log_softmax import LogSoftmax  # NOQA
from minichainer.functions.activation.log_softmax import log_softmax  # NOQA
from minichainer.functions.activation.lstm import LSTM  # NOQA
from minichainer.functions.activation.lstm import lstm  # NOQA
from minichainer.functions.activation.maxout import maxout  # NOQA
from minichainer.functions.activation.prelu import PReLUFunction  # NOQA
from minichainer.functions.activation.prelu import prelu  # NOQA
from minichainer.functions.activation.relu import ReLU  # NOQA
from minichainer.functions.activation.relu import relu  # NOQA
from minichainer.functions.activation.rrelu import RReLU  # NOQA
from minichainer.functions.activation.rrelu import rrelu  # NOQA
from minichainer.functions.activation.selu import selu  # NOQA
from minichainer.functions.activation.sigmoid import Sigmoid  # NOQA
from minichainer.functions.activation.sigmoid import sigmoid  # NOQA
from minichainer.functions.activation.slstm import SLSTM  # NOQA
from minichainer.functions.activation.slstm import slstm  # NOQA
from minichainer.functions.activation.softmax import Softmax  # NOQA
from minichainer.functions.activation.softmax import softmax  # NOQA
from minichainer.functions.activation.softplus import Softplus  # NOQA
from minichainer.functions.activation.softplus import softplus  # NOQA
from minichainer.functions.activation.swish import Swish  # NOQA
from minichainer.functions.activation.swish import swish  # NOQA
from minichainer.functions.activation.tanh import Tanh  # NOQA
from minichainer.functions.activation.tanh import tanh  # NOQA

__all__ = [
    'clipped_relu', 'crelu', 'elu', 'hard_sigmoid', 'leaky_relu', 'log_softmax', 'lstm',
    'maxout', 'prelu', 'relu', 'relu6', 'rrelu', 'selu', 'sigmoid', 'slstm', 'softmax',
    'softplus', 'swish', 'tanh',
]

# ``from minichainer.functions.activation import <module>`` style access (see _module_alias)
_alias_modules(globals(), __all__)
del _alias_modules
