"""`chainer.functions.rnn.slstm`: the S-LSTM function (implemented in activation/slstm.py)."""
from minichainer.functions.activation.slstm import SLSTM, SLSTMGrad, slstm  # noqa: F401
