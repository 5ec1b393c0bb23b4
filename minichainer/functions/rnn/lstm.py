"""`chainer.functions.rnn.lstm`: the LSTM function (implemented in activation/lstm.py)."""
from minichainer.functions.activation.lstm import LSTM, LSTMGrad, _extract_gates, lstm  # noqa: F401
