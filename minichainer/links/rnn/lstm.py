"""Fully-connected LSTM layers: `LSTM` (stateful) and `StatelessLSTM`."""
from minichainer import initializers
from minichainer import link
from minichainer.links._check import check_size
from minichainer.links.connection import linear
from minichainer.links.rnn.state import RecurrentState
from minichainer import variable

from minichainer.functions.array import concat as _concat
from minichainer.functions.activation import lstm as _lstm
from minichainer.functions.array import split_axis as _split_axis


class LSTMBase(link.Chain):
    """Common part of the LSTM links: the `upward` and `lateral` Linear children.

    The 4 gates are interleaved in the `4 * out_size` outputs as in Chainer's
    `F.lstm` (cell input, input, forget, output for each unit). Weights are initialized
    block by block (`lateral` then `upward` for each of the 4 blocks), which keeps
    Chainer's order of random draws.
    """

    def __init__(self, in_size, out_size=None, lateral_init=None, upward_init=None,
                 bias_init=None, forget_bias_init=None):
        if out_size is None:
            out_size, in_size = in_size, None
        check_size(type(self).__name__, 'in_size', in_size, allow_none=True)
        check_size(type(self).__name__, 'out_size', out_size)
        super().__init__()
        if bias_init is None:
            bias_init = 0
        if forget_bias_init is None:
            forget_bias_init = 1
        self.state_size = out_size
        self.lateral_init = lateral_init
        self.upward_init = upward_init
        self.bias_init = bias_init
        self.forget_bias_init = forget_bias_init
        with self.init_scope():
            self.upward = linear.Linear(in_size, 4 * out_size, initialW=0)
            self.lateral = linear.Linear(out_size, 4 * out_size, initialW=0, nobias=True)
            if in_size is not None:
                self._initialize_params()

    def _initialize_params(self):
        lateral_init = initializers.get_initializer(self.lateral_init)
        upward_init = initializers.get_initializer(self.upward_init)
        bias_init = initializers.get_initializer(self.bias_init)
        forget_bias_init = initializers.get_initializer(self.forget_bias_init)
        n = self.state_size
        for i in range(0, 4 * n, n):
            lateral_init(self.lateral.W.array[i:i + n, :])
            upward_init(self.upward.W.array[i:i + n, :])
        a, i, f, o = _lstm.extract_gates(self.upward.b.array.reshape(1, 4 * n, 1))
        bias_init(a)
        bias_init(i)
        forget_bias_init(f)
        bias_init(o)

    def _lazy_init(self, x):
        if self.upward.W.array is None:
            in_size = 1
            for d in x.shape[1:]:
                in_size *= d
            self.upward._initialize_params(in_size)
            self._initialize_params()


class StatelessLSTM(LSTMBase):
    """LSTM layer without internal state: `c_new, h_new = link(c, h, x)`.

    `c` and `h` may be None at the first step (zeros / no lateral input).
    """

    def forward(self, c, h, x):
        """Return `(c_new, h_new)` from the previous cell state, output and input."""
        self._lazy_init(x)
        lstm_in = self.upward(x)
        if h is not None:
            lstm_in += self.lateral(h)
        if c is None:
            c = variable.Variable(self.xp.zeros((x.shape[0], self.state_size), dtype=x.dtype))
        return _lstm.lstm(c, lstm_in)


class LSTM(RecurrentState, LSTMBase):
    """Stateful fully-connected LSTM layer: `h = link(x)` updates the cell state `c`
    and output `h`.

    The batch size may shrink from one step to the next (sort sequences by decreasing
    length): only the first `len(x)` rows of the state are updated.

    Args:
        in_size (int or None): Input dimension (None: inferred on the first call).
            `LSTM(n)` means `LSTM(None, n)`.
        out_size (int): Output dimension.
        lateral_init, upward_init: Weight initializers (default LeCunNormal).
        bias_init: Bias initializer of the cell input, input and output gates (0).
        forget_bias_init: Bias initializer of the forget gate (1).
    """

    state_names = ('c', 'h')

    def __init__(self, in_size, out_size=None, lateral_init=None, upward_init=None,
                 bias_init=None, forget_bias_init=None):
        if out_size is None:
            in_size, out_size = None, in_size
        super().__init__(in_size, out_size, lateral_init, upward_init, bias_init,
                         forget_bias_init)
        self.reset_state()

    def set_state(self, c, h):
        """Set the cell state `c` and the previous output `h` (Variables).

        Raises:
            TypeError: `c` or `h` is not a Variable.
        """
        self.assign_state('LSTM.set_state', True, (('c', c), ('h', h)))

    def forward(self, x):
        """Update the state with the batch `x` and return the new output.

        Raises:
            TypeError: `x` has a larger batch than the stored state.
        """
        self._lazy_init(x)
        batch = x.shape[0]
        lstm_in = self.upward(x)
        h_rest = None
        if self.h is not None:
            h_size = self.h.shape[0]
            if batch == 0:
                h_rest = self.h
            elif h_size < batch:
                raise TypeError(
                    'LSTM: the batch size of x ({}) must be equal to or less than the size '
                    'of the previous state h ({})'.format(batch, h_size))
            elif h_size > batch:
                h_update, h_rest = _split_axis.split_axis(self.h, [batch], axis=0)
                lstm_in += self.lateral(h_update)
            else:
                lstm_in += self.lateral(self.h)
        if self.c is None:
            self.c = variable.Variable(
                self.xp.zeros((batch, self.state_size), dtype=x.dtype))
        self.c, y = _lstm.lstm(self.c, lstm_in)
        if h_rest is None:
            self.h = y
        elif len(y.array) == 0:
            self.h = h_rest
        else:
            self.h = _concat.concat([y, h_rest], axis=0)
        return y
