"""Tree-structured LSTM links: `ChildSumTreeLSTM` and `NaryTreeLSTM`.

Both are stateless: a call merges the states `(c, h)` of the children of a tree node
with the node's input `x` and returns the node's `(c, h)`, computed by
[`tree_lstm`][minichainer.functions.rnn.tree_lstm.tree_lstm].
"""
import numbers

import numpy

from minichainer import link
from minichainer.links.connection import linear

from minichainer.functions.array import concat as _concat
from minichainer.functions.activation import sigmoid as _sigmoid
from minichainer.functions.array import split_axis as _split_axis
from minichainer.functions.activation import tanh as _tanh
from minichainer.functions.rnn import tree_lstm as _tree_lstm


class _TreeLSTMBase(link.Chain):
    """Argument handling shared by the two tree LSTM links."""

    def _zero_input(self, cs, hs):
        """Zeros standing for a missing `x`, shaped after the first given state."""
        given = [v for v in tuple(cs) + tuple(hs) if v is not None]
        if not given:
            raise ValueError(
                '{}: all inputs (cs, hs, x) are None; at least one is needed to know the '
                'batch size'.format(type(self).__name__))
        return self.xp.zeros((given[0].shape[0], self.in_size), dtype=given[0].dtype)

    def _pad_zero_nodes(self, vs, shape, dtype=numpy.float32):
        """Replace the `None` entries of `vs` by zeros of `shape`."""
        if all(v is not None for v in vs):
            return tuple(vs)
        zero = self.xp.zeros(shape, dtype=dtype)
        return tuple(zero if v is None else v for v in vs)


class ChildSumTreeLSTM(_TreeLSTMBase):
    """Child-Sum TreeLSTM unit (Tai et al., 2015) for any number of children.

    Called as `link(c_1, ..., c_N, h_1, ..., h_N, x)` (`N >= 0`); returns
    `(c, h)`. The result does not depend on the order of the children. `None` may
    stand for a child state (zeros) or for `x` (zeros of `in_size`).

    Args:
        in_size (int): dimension of the input vectors `x`.
        out_size (int): dimension of the cell and output vectors.

    Attributes:
        W_x (Linear): `in_size -> 4 * out_size`, for `a, i, o`
            and the forget gate.
        W_h_aio (Linear): `out_size -> 3 * out_size` (no bias),
            applied to the sum of the children's outputs for `a, i, o`.
        W_h_f (Linear): `out_size -> out_size` (no bias), applied
            to each child's output for that child's forget gate.
    """

    def __init__(self, in_size, out_size):
        super().__init__()
        with self.init_scope():
            self.W_x = linear.Linear(in_size, 4 * out_size)
            self.W_h_aio = linear.Linear(out_size, 3 * out_size, nobias=True)
            self.W_h_f = linear.Linear(out_size, out_size, nobias=True)
        self.in_size = in_size
        self.state_size = out_size

    def forward(self, *cshsx):
        """Return the new `(c, h)` from `c_1..c_N, h_1..h_N, x`.

        Raises:
            ValueError: for an even number of arguments or when all of them are None.
        """
        if len(cshsx) % 2 != 1:
            raise ValueError(
                'ChildSumTreeLSTM: expected 2 * N + 1 arguments (c_1..c_N, h_1..h_N, x), '
                'got {}'.format(len(cshsx)))
        n_children = len(cshsx) // 2
        cs, hs, x = cshsx[:n_children], cshsx[n_children:-1], cshsx[-1]
        if x is None:
            x = self._zero_input(cs, hs)
        units = self.state_size
        aio_x, f_x = _split_axis.split_axis(self.W_x(x), [3 * units], axis=1)
        if n_children == 0:
            a, i, o = _split_axis.split_axis(aio_x, 3, axis=1)
            c = _sigmoid.sigmoid(i) * _tanh.tanh(a)
            return c, _sigmoid.sigmoid(o) * _tanh.tanh(c)
        state_shape = (x.shape[0], units)
        hs = self._pad_zero_nodes(hs, state_shape, x.dtype)
        cs = self._pad_zero_nodes(cs, state_shape, x.dtype)
        h_sum = hs[0]
        for h in hs[1:]:
            h_sum = h_sum + h
        aio = self.W_h_aio(h_sum) + aio_x
        # One matmul for every child's forget gate, then the blocks side by side.
        f_h = _split_axis.split_axis(
            self.W_h_f(_concat.concat(hs, axis=0)), n_children, axis=0)
        f = _concat.concat(f_h, axis=1) + _concat.concat([f_x] * n_children, axis=1)
        return _tree_lstm.tree_lstm(*(cs + (_concat.concat([aio, f], axis=1),)))


class NaryTreeLSTM(_TreeLSTMBase):
    """N-ary TreeLSTM unit (Tai et al., 2015, Bowman et al.'s variant) for `n_ary`
    ordered children.

    Called as `link(c_1, ..., c_n, h_1, ..., h_n, x)` with exactly `n = n_ary`
    children; returns `(c, h)`. Every child has its own matrix `W_h{k}` that feeds
    all gates including each child's forget gate. `None` may stand for a child state
    (zeros) or for `x` (zeros of `in_size`).

    Args:
        in_size (int): dimension of the input vectors `x`.
        out_size (int): dimension of the cell and output vectors.
        n_ary (int): number of children, `>= 1`.

    Attributes:
        W_x (Linear): `in_size -> (3 + n_ary) * out_size`.
        W_h1, ..., W_h{n_ary} (Linear):
            `out_size -> (3 + n_ary) * out_size` (no bias), one per child.
    """

    def __init__(self, in_size, out_size, n_ary=2):
        if isinstance(n_ary, bool) or not isinstance(n_ary, numbers.Integral) \
                or n_ary < 1:
            raise ValueError(
                'NaryTreeLSTM: n_ary must be an int >= 1, got {!r}'.format(n_ary))
        super().__init__()
        width = (3 + n_ary) * out_size
        with self.init_scope():
            self.W_x = linear.Linear(in_size, width)
            for k in range(1, n_ary + 1):
                setattr(self, 'W_h{}'.format(k), linear.Linear(out_size, width, nobias=True))
        self.in_size = in_size
        self.state_size = out_size
        self.n_ary = n_ary

    def forward(self, *cshsx):
        """Return the new `(c, h)` from `c_1..c_n, h_1..h_n, x`.

        Raises:
            ValueError: for a number of arguments other than `2 * n_ary + 1` or when
                all of them are None.
        """
        n_ary = self.n_ary
        if len(cshsx) != 2 * n_ary + 1:
            raise ValueError(
                'NaryTreeLSTM: expected 2 * n_ary + 1 = {} arguments (c_1..c_{n}, '
                'h_1..h_{n}, x), got {}'.format(2 * n_ary + 1, len(cshsx), n=n_ary))
        cs, hs, x = cshsx[:n_ary], cshsx[n_ary:-1], cshsx[-1]
        if x is None:
            x = self._zero_input(cs, hs)
        pre = self.W_x(x)
        for k, h in enumerate(hs, start=1):
            if h is not None:
                pre = pre + getattr(self, 'W_h{}'.format(k))(h)
        cs = self._pad_zero_nodes(cs, (x.shape[0], self.state_size), x.dtype)
        return _tree_lstm.tree_lstm(*(cs + (pre,)))
