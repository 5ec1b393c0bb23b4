"""Stacked RNNs over lists of variable-length sequences: the `NStepRNNBase` family.

The links sort the sequences by decreasing length, transpose them to time-major order,
run every layer (and direction) step by step and restore the original order, computing
what Chainer's `F.n_step_rnn`/`n_step_lstm`/`n_step_gru` (and their `bi`
versions) compute: the same weight layout (`w0`, `b0`, ... per layer and direction),
the same gate order and dropout between layers (not on the input of the first layer).
The recurrence is written with minichainer's differentiable functions.
"""
import numpy

from minichainer import initializers
from minichainer import link
from minichainer import variable
from minichainer.functions.array import permutate as _permutate
from minichainer.functions.array import transpose_sequence as _transpose_sequence
from minichainer.functions.rnn import n_step_rnn as _n_step_rnn

def argsort_list_descent(lst):
    """Indices that sort `lst` by decreasing length (stable)."""
    return numpy.argsort([-len(x) for x in lst], kind='stable').astype(numpy.int32)


def permutate_list(lst, indices, inv):
    """Reorder `lst` by `indices` (or by their inverse when `inv`)."""
    ret = [None] * len(lst)
    if inv:
        for i, ind in enumerate(indices):
            ret[ind] = lst[i]
    else:
        for i, ind in enumerate(indices):
            ret[i] = lst[ind]
    return ret


class NStepRNNBase(link.ChainList):
    """Base class of the stacked (bi-)directional RNN links.

    `NStepRNNBase(n_layers, in_size, out_size, dropout, *, initialW=None,
    initial_bias=None)`: one child Link per layer and direction, holding `w0`...
    `w{n_weights-1}` (shape `(out_size, w_in)`, default LeCunNormal) and `b0`...
    (default 0), created in that order.

    Raises:
        ValueError: a removed argument (`use_cudnn`, `use_bi_direction`,
            `activation`) is given.
    """

    n_weights = None
    use_bi_direction = False
    activation = 'tanh'

    def __init__(self, n_layers, in_size, out_size, dropout, *, initialW=None,
                 initial_bias=None, **kwargs):
        for removed in ('use_cudnn', 'use_bi_direction', 'activation'):
            if removed in kwargs:
                raise ValueError('{}: the {} argument is not supported anymore'.format(
                    type(self).__name__, removed))
        if kwargs:
            raise TypeError('{}() got unexpected keyword argument(s): {}'.format(
                type(self).__name__, ', '.join(sorted(kwargs))))
        direction = 2 if self.use_bi_direction else 1
        W_init = initializers.get_initializer(initialW)
        b_init = initializers.get_initializer(0 if initial_bias is None else initial_bias)
        weights = []
        for i in range(n_layers):
            for _ in range(direction):
                weight = link.Link()
                with weight.init_scope():
                    for j in range(self.n_weights):
                        if j >= self.n_weights // 2:
                            w_in = out_size
                        elif i == 0:
                            w_in = in_size
                        else:
                            w_in = out_size * direction
                        setattr(weight, 'w%d' % j, variable.Parameter(W_init, (out_size, w_in)))
                        setattr(weight, 'b%d' % j, variable.Parameter(b_init, (out_size,)))
                weights.append(weight)
        super().__init__(*weights)
        self._set_weight_lists()
        self.n_layers = n_layers
        self.dropout = dropout
        self.out_size = out_size
        self.direction = direction

    def _set_weight_lists(self):
        n = self.n_weights
        self.ws = [[getattr(layer, 'w%d' % i) for i in range(n)] for layer in self]
        self.bs = [[getattr(layer, 'b%d' % i) for i in range(n)] for layer in self]

    def copy(self, mode='share'):
        ret = super().copy(mode)
        ret._set_weight_lists()
        return ret

    def init_hx(self, xs):
        """Zero initial states of shape `(n_layers * direction, len(xs), out_size)`."""
        shape = (self.n_layers * self.direction, len(xs), self.out_size)
        return variable.Variable(self.xp.zeros(shape, dtype=xs[0].dtype))

    @property
    def n_cells(self):
        """Number of state arrays (1, or 2 for LSTMs)."""
        return 1

    def rnn(self, n_layers, dropout, hx, ws, bs, xs):
        """Run the recurrence over the time-major inputs `xs` from the initial states
        (as Chainer's links, through the functions: here
        [`n_step_rnn_base`][minichainer.functions.rnn.n_step_rnn.n_step_rnn_base] with the
        class's `activation`); returns the final states and the outputs."""
        return _n_step_rnn.n_step_rnn_base(n_layers, dropout, hx, ws, bs, xs,
                                           self.activation, self.use_bi_direction)

    def forward(self, hx, xs, **kwargs):
        """forward(self, hx, xs)

        Args:
            hx: Initial hidden states `(n_layers * direction, B, out_size)` or None.
            xs (list of Variables or arrays): The B sequences, each `(L_i, in_size)`.

        Returns:
            tuple: `(hy, ys)`: final hidden states and the list of output sequences.
        """
        (hy,), ys = self._call([hx], xs, **kwargs)
        return hy, ys

    def _call(self, hs, xs, **kwargs):
        if 'train' in kwargs:
            raise ValueError("{}: the train argument is not supported anymore; use "
                             "minichainer.using_config('train', ...)".format(
                                 type(self).__name__))
        if kwargs:
            raise TypeError('{}.forward() got unexpected keyword argument(s): {}'.format(
                type(self).__name__, ', '.join(sorted(kwargs))))
        if not isinstance(xs, (list, tuple)):
            raise TypeError('{}: xs must be a list or tuple of sequences, got {}'.format(
                type(self).__name__, type(xs).__name__))
        indices = argsort_list_descent(xs)
        # sequences already longest first (e.g. of equal length): no permutation, and
        # no Permutate nodes in the graph (nor in an exported ONNX graph)
        in_order = bool((indices == numpy.arange(len(indices))).all())
        if not in_order:
            xs = permutate_list(xs, indices, inv=False)
        hxs = []
        for hx in hs:
            if hx is None:
                hx = self.init_hx(xs)
            elif not in_order:
                hx = _permutate.permutate(hx, indices, axis=1, inv=False)
            hxs.append(hx)
        trans_x = _transpose_sequence.transpose_sequence(xs)
        result = self.rnn(self.n_layers, self.dropout, *hxs, self.ws, self.bs, trans_x)
        ys = _transpose_sequence.transpose_sequence(result[-1])
        if in_order:
            return list(result[:-1]), list(ys)
        hys = [_permutate.permutate(h, indices, axis=1, inv=True) for h in result[:-1]]
        ys = permutate_list(ys, indices, inv=True)
        return hys, ys


class NStepRNNTanh(NStepRNNBase):
    """Stacked uni-directional RNN with tanh: `h_t = tanh(W0 x_t + b0 + W1 h_{t-1} + b1)`."""

    n_weights = 2
    use_bi_direction = False
    activation = 'tanh'


class NStepRNNReLU(NStepRNNBase):
    """Stacked uni-directional RNN with ReLU."""

    n_weights = 2
    use_bi_direction = False
    activation = 'relu'


class NStepBiRNNTanh(NStepRNNBase):
    """Stacked bi-directional RNN with tanh (outputs are `[forward; backward]`)."""

    n_weights = 2
    use_bi_direction = True
    activation = 'tanh'


class NStepBiRNNReLU(NStepRNNBase):
    """Stacked bi-directional RNN with ReLU."""

    n_weights = 2
    use_bi_direction = True
    activation = 'relu'
