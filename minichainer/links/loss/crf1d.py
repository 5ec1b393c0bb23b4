"""The linear-chain conditional random field layer `CRF1d`."""
from minichainer.functions.array import transpose_sequence
from minichainer.functions.loss import crf1d
from minichainer import initializers
from minichainer import link
from minichainer.links._check import check_size
from minichainer.links.rnn.n_step_rnn import argsort_list_descent
from minichainer.links.rnn.n_step_rnn import permutate_list
from minichainer import variable


def _sorted_time_major(seqs, indices):
    # Batch-major sequences, reordered by decreasing length, as time-major steps.
    return transpose_sequence.transpose_sequence(permutate_list(seqs, indices, inv=False))


class CRF1d(link.Link):
    """Linear-chain CRF loss layer holding the transition cost matrix.

    Wraps [`crf1d`][minichainer.functions.loss.crf1d.crf1d] (loss) and
    [`argmax_crf1d`][minichainer.functions.loss.crf1d.argmax_crf1d] (Viterbi decoding).

    Args:
        n_label (int): Number of labels.
        initial_cost: Initializer, array or scalar for `cost` (default: zeros).

    Attributes:
        cost (Parameter): `(n_label, n_label)` transition costs;
            `cost[i, j]` scores label `i` followed by label `j`.
    """

    def __init__(self, n_label, initial_cost=None):
        super().__init__()
        check_size('CRF1d', 'n_label', n_label)
        if initial_cost is None:
            initial_cost = initializers.constant.Zero()
        with self.init_scope():
            self.cost = variable.Parameter(initializer=initial_cost,
                                           shape=(n_label, n_label))

    def forward(self, xs, ys, reduce='mean', transpose=False):
        """Negative log-likelihood of the gold label sequences.

        Args:
            xs (list of Variable or ndarray): Unary scores. Time-major `(B_t, n_label)`
                arrays with non-increasing `B_t` when `transpose` is False; else
                batch-major `(L_i, n_label)` sequences in any order.
            ys (list of Variable or ndarray): int32 gold labels, laid out as `xs`.
            reduce (str): `'mean'` (sum over sequences / batch size) or `'no'`.
            transpose (bool): `xs`/`ys` are batch-major: sort them by decreasing length
                and transpose them to time-major first. With `reduce='no'` the losses then
                come in that sorted order (as in Chainer), not in the order of `xs`.

        Returns:
            Variable: The loss.
        """
        if transpose:
            indices = argsort_list_descent(xs)
            xs = _sorted_time_major(xs, indices)
            ys = _sorted_time_major(ys, indices)
        return crf1d.crf1d(self.cost, xs, ys, reduce)

    def argmax(self, xs, transpose=False):
        """Most likely label sequences (Viterbi decoding).

        Args:
            xs (list of Variable or ndarray): Unary scores, laid out as in
                [`forward`][minichainer.links.loss.crf1d.CRF1d.forward].
            transpose (bool): `xs` are batch-major sequences in any order; the path is
                then returned batch-major, in the order of `xs`.

        Returns:
            tuple: `(score, path)`: a Variable with the best score of each sequence
            (in time-major/sorted order, as Chainer) and the best labels as a list of
            int arrays (one per time step, or one per sequence when `transpose`).
        """
        if not transpose:
            return crf1d.argmax_crf1d(self.cost, xs)
        indices = argsort_list_descent(xs)
        score, path = crf1d.argmax_crf1d(self.cost, _sorted_time_major(xs, indices))
        path = [p.array for p in transpose_sequence.transpose_sequence(path)]
        return score, permutate_list(path, indices, inv=True)
