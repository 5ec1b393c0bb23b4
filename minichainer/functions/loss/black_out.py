"""BlackOut loss."""
from minichainer.functions.array.broadcast import broadcast
from minichainer.functions.array.concat import concat
from minichainer.functions.array.expand_dims import expand_dims
from minichainer.functions.array.reshape import reshape
from minichainer.functions.connection.embed_id import embed_id
from minichainer.functions.math.average import average
from minichainer.functions.math.exponential import exp
from minichainer.functions.math.exponential import log
from minichainer.functions.math.logsumexp import logsumexp
from minichainer.functions.math.matmul import matmul
from minichainer.functions.math.sum import sum as _sum
from minichainer.functions.util import checks


def black_out(x, t, W, samples, reduce='mean'):
    """BlackOut loss (weighted sampling approximation of softmax cross entropy).

    Args:
        x (Variable or ndarray): (batch, units) inputs.
        t (Variable or ndarray): (batch,) int targets.
        W (Variable or ndarray): (vocab, units) output embeddings.
        samples (Variable or ndarray): (batch, n_samples) int negative samples.
        reduce (str): `'mean'` or `'no'`.

    Raises:
        ValueError: for an unknown `reduce`.
    """
    checks.reduce_option(reduce, ('mean', 'no'))
    batch_size = x.shape[0]
    x3 = reshape(x, x.shape + (1,))
    neg_emb = embed_id(samples, W)
    neg_y = matmul(neg_emb, x3)
    neg_y = reshape(neg_y, neg_y.shape[:-1])
    pos_emb = expand_dims(embed_id(t, W), 1)
    pos_y = matmul(pos_emb, x3)
    pos_y = reshape(pos_y, pos_y.shape[:-1])
    logz = logsumexp(concat([pos_y, neg_y]), axis=1)
    blogz, bneg_y = broadcast(reshape(logz, (batch_size, 1)), neg_y)
    ny = log(1 - exp(bneg_y - blogz))
    py = reshape(pos_y, (batch_size,))
    loss = -(py - logz + _sum(ny, axis=1))
    if reduce == 'mean':
        return average(loss)
    return loss
