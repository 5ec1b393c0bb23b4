"""Optimizers (`chainer.optimizers`)."""
from minichainer.optimizers.ada_delta import AdaDelta  # noqa: F401
from minichainer.optimizers.ada_grad import AdaGrad  # noqa: F401
from minichainer.optimizers.adam import AdaBound  # noqa: F401
from minichainer.optimizers.adam import Adam  # noqa: F401
from minichainer.optimizers.adam import AdamW  # noqa: F401
from minichainer.optimizers.adam import AMSBound  # noqa: F401
from minichainer.optimizers.adam import AMSGrad  # noqa: F401
from minichainer.optimizers.corrected_momentum_sgd import CorrectedMomentumSGD  # noqa: F401
from minichainer.optimizers.momentum_sgd import MomentumSGD  # noqa: F401
from minichainer.optimizers.msvag import MSVAG  # noqa: F401
from minichainer.optimizers.nesterov_ag import NesterovAG  # noqa: F401
from minichainer.optimizers.rmsprop import RMSprop  # noqa: F401
from minichainer.optimizers.rmsprop_graves import RMSpropGraves  # noqa: F401
from minichainer.optimizers.sgd import SGD  # noqa: F401
from minichainer.optimizers.smorms3 import SMORMS3  # noqa: F401
