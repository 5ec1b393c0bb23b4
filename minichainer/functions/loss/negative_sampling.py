"""Negative sampling loss."""
from minichainer import backend
from minichainer.utils import argument
from minichainer.utils import type_check
from minichainer.functions.activation.softplus import softplus
from minichainer.functions.array.broadcast import broadcast_to
from minichainer.functions.array.reshape import reshape
from minichainer.functions.connection.embed_id import embed_id
from minichainer.functions.math.sum import sum as _sum
from minichainer.variable import as_array
from minichainer.functions.util import checks


def _check_inputs(x, t, W):
    xs, ts, ws = x.shape, t.shape, W.shape
    if x.dtype.kind != 'f' or t.dtype.kind != 'i' or len(xs) != 2 or len(ts) != 1 \
            or xs[0] != ts[0] or W.dtype != x.dtype or len(ws) != 2 or ws[1] != xs[1]:
        raise type_check.InvalidType(
            'x.dtype.kind == f, t.dtype.kind == i, x.ndim == 2, t.ndim == 1, '
            'x.shape[0] == t.shape[0], W.dtype == x.dtype, W.ndim == 2, '
            'W.shape[1] == x.shape[1]',
            'x: {} {}, t: {} {}, W: {} {}'.format(x.dtype, xs, t.dtype, ts, W.dtype, ws))


def negative_sampling(x, t, W, sampler, sample_size, reduce='sum', **kwargs):
    """negative_sampling(x, t, W, sampler, sample_size, reduce='sum', *, return_samples=False)

    Negative sampling loss: for each row, `log(1 + exp(-w_t . x)) +
    sum_k log(1 + exp(w_k . x))` over `sample_size` negatives drawn by
    `sampler((batch, sample_size + 1))` (column 0 is replaced by `t`).
    Rows with `t == -1` are ignored.

    Built from differentiable functions (higher-order gradients work); Chainer uses a
    dedicated FunctionNode.

    Returns:
        Variable (scalar for `reduce='sum'`, (batch,) for `'no'`), plus the
        samples array when `return_samples` is True.

    Raises:
        ValueError: for an unknown `reduce`.
    """
    return_samples, = argument.parse_kwargs(kwargs, ('return_samples', False))
    checks.reduce_option(reduce, ('sum', 'no'))
    t_arr = as_array(t)
    _check_inputs(x, t_arr, W)
    xp = backend.get_array_module(t_arr)
    n = int(t_arr.shape[0])
    samples = sampler((n, sample_size + 1))
    samples[:, 0] = t_arr
    mask = t_arr != -1
    safe = xp.where(mask[:, None], samples, 0)
    w = embed_id(safe, W)  # (n, S + 1, d)
    x3 = broadcast_to(reshape(x, (n, 1, x.shape[1])), w.shape)
    wx = _sum(w * x3, axis=2)  # (n, S + 1)
    sign = xp.ones((n, sample_size + 1), dtype=x.dtype)
    sign[:, 0] = -1
    sign *= mask[:, None]  # ignored rows contribute softplus(0) * 0 below
    per = softplus(wx * sign) * xp.asarray(mask[:, None], dtype=x.dtype)
    loss = _sum(per, axis=1)
    if reduce == 'sum':
        loss = _sum(loss)
    if return_samples:
        return loss, samples
    return loss
