"""Linear-chain conditional random field loss and Viterbi decoding."""
from minichainer.functions.array.broadcast import broadcast
from minichainer.functions.array.concat import concat
from minichainer.functions.array.reshape import reshape
from minichainer.functions.array.select_item import select_item
from minichainer.functions.array.split_axis import split_axis
from minichainer.functions.connection.embed_id import embed_id
from minichainer.functions.math.logsumexp import logsumexp
from minichainer.functions.math.minmax import argmax
from minichainer.functions.math.minmax import max as _max
from minichainer.functions.math.sum import sum as _sum
from minichainer.functions.util import checks


def crf1d(cost, xs, ys, reduce='mean'):
    """Negative log-likelihood of a linear-chain CRF.

    Args:
        cost (Variable or ndarray): (K, K) transition costs; `cost[i, j]` scores the
            transition from label `i` to label `j`.
        xs (list of Variable or ndarray): time-major (B_t, K) unary scores with
            non-increasing B_t (sequences sorted by length, then transposed).
        ys (list of Variable or ndarray): time-major (B_t,) int gold labels.
        reduce (str): `'mean'` (sum over sequences / batch size) or `'no'`.

    Returns:
        Variable: scalar loss, or (B,) per-sequence losses for `reduce='no'`.

    Raises:
        ValueError: for an unknown `reduce` or inconsistent label counts.
    """
    checks.reduce_option(reduce, ('mean', 'no'))
    if xs[0].shape[1] != cost.shape[0]:
        raise ValueError('crf1d: xs[0].shape[1] ({}) must equal the number of labels '
                         'cost.shape[0] ({})'.format(xs[0].shape[1], cost.shape[0]))
    n_label = cost.shape[0]
    n_batch = xs[0].shape[0]

    alpha = xs[0]
    alphas = []
    for x in xs[1:]:
        batch = x.shape[0]
        if alpha.shape[0] > batch:
            alpha, alpha_rest = split_axis(alpha, [batch], axis=0)
            alphas.append(alpha_rest)
        b_alpha, b_cost = broadcast(reshape(alpha, alpha.shape + (1,)), cost)
        alpha = logsumexp(b_alpha + b_cost, axis=1) + x
    if alphas:
        alphas.append(alpha)
        alpha = concat(alphas[::-1], axis=0)
    logz = logsumexp(alpha, axis=1)

    cost_flat = reshape(cost, (cost.size, 1))
    score = select_item(xs[0], ys[0])
    scores = []
    for x, y, y_prev in zip(xs[1:], ys[1:], ys[:-1]):
        batch = x.shape[0]
        if score.shape[0] > batch:
            y_prev, _ = split_axis(y_prev, [batch], axis=0)
            score, score_rest = split_axis(score, [batch], axis=0)
            scores.append(score_rest)
        y_arr = getattr(y, 'array', y)
        y_prev_arr = getattr(y_prev, 'array', y_prev)
        score = score + select_item(x, y) + reshape(
            embed_id(y_prev_arr * n_label + y_arr, cost_flat), (batch,))
    if scores:
        scores.append(score)
        score = concat(scores[::-1], axis=0)
    loss = logz - score
    if reduce == 'mean':
        return _sum(loss) / n_batch
    return loss


def argmax_crf1d(cost, xs):
    """Viterbi decoding of a linear-chain CRF.

    Args:
        cost (Variable or ndarray): (K, K) transition costs.
        xs (list of Variable or ndarray): time-major (B_t, K) unary scores.

    Returns:
        tuple: `(score, path)`: the (B,) best scores (a Variable) and the best label
        sequence as a list of int arrays, one per time step.
    """
    alpha = xs[0]
    alphas = []
    max_inds = []
    for x in xs[1:]:
        batch = x.shape[0]
        if alpha.shape[0] > batch:
            alpha, alpha_rest = split_axis(alpha, [batch], axis=0)
            alphas.append(alpha_rest)
        else:
            alphas.append(None)
        b_alpha, b_cost = broadcast(reshape(alpha, alpha.shape + (1,)), cost)
        scores = b_alpha + b_cost
        max_inds.append(argmax(scores, axis=1))
        alpha = _max(scores, axis=1) + x
    inds = argmax(alpha, axis=1)
    path = [inds.array]
    for m, a in zip(max_inds[::-1], alphas[::-1]):
        inds = select_item(m, inds)
        if a is not None:
            inds = concat([inds, argmax(a, axis=1)], axis=0)
        path.append(inds.array)
    path.reverse()
    score = _max(alpha, axis=1)
    for a in alphas[::-1]:
        if a is None:
            continue
        score = concat([score, _max(a, axis=1)], axis=0)
    return score, path
