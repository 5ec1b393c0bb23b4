"""Batch normalization with statistics over the whole multi-process batch."""
import numpy

from minichainer import backend
from minichainer import function_node
from minichainer import variable


def _pack_allreduce(comm, arrays):
    """Sum over the ranks of several 1-D arrays in one Allreduce (in float64), on their
    device (a GPU buffer travels through the communicator's host staging)."""
    sizes = [a.size for a in arrays]
    xp = backend.get_array_module(arrays[0])
    buf = xp.concatenate([a.astype(numpy.float64, copy=False).ravel() for a in arrays])
    total = comm.allreduce(buf)
    out = []
    offset = 0
    for n in sizes:
        out.append(total[offset:offset + n])
        offset += n
    return out


class MultiNodeBatchNormalizationFunction(function_node.FunctionNode):
    """Normalize with the mean and variance of the batch of every rank together.

    One Allreduce (sums, sums of squares, counts) in forward and one (sums of `gy` and
    `gy * x_hat`) in backward. The gradients of gamma and beta are this rank's part
    (the multi-node optimizer then averages them); `x`'s gradient accounts for every
    rank. Double backpropagation is not supported.
    """

    def __init__(self, comm, eps=2e-5, mean=None, var=None, decay=0.9):
        self.comm = comm
        self.eps = eps
        self.running_mean = mean
        self.running_var = var
        self.decay = decay

    def forward(self, inputs):
        x, gamma, beta = inputs
        if x.ndim < 2 or x.shape[1:2] != gamma.shape[:1] or gamma.ndim != 1:
            raise ValueError(
                'multi_node_batch_normalization: x must have shape (N, C, ...) with C = '
                'gamma.size, got x {} and gamma {}'.format(x.shape, gamma.shape))
        axis = (0,) + tuple(range(2, x.ndim))
        self.axis = axis
        expand = (None, slice(None)) + (None,) * (x.ndim - 2)
        self.expand = expand
        xp = backend.get_array_module(x)
        n_local = x.size // gamma.size
        s, ss, n = _pack_allreduce(self.comm, [
            x.sum(axis=axis, dtype=numpy.float64),
            xp.square(x, dtype=numpy.float64).sum(axis=axis),
            xp.full(1, n_local, dtype=numpy.float64)])
        n = n[0]  # the total count stays an array (no host copy on a GPU)
        mean64 = s / n
        var64 = xp.maximum(ss / n - mean64 * mean64, 0.)
        self.n_total = n
        # computed in the wider of x's and gamma's dtypes (float32 for mixed16's float16
        # x and float32 gamma), as Chainer's batch normalization does
        dtype = numpy.promote_types(x.dtype, gamma.dtype)
        mean = mean64.astype(dtype)
        inv_std = (1. / xp.sqrt(var64 + self.eps)).astype(dtype)
        self.inv_std = inv_std
        x_hat = (x - mean[expand]) * inv_std[expand]
        self.x_hat = x_hat
        y = gamma[expand] * x_hat + beta[expand]
        if self.running_mean is not None:
            m = self.decay
            adjust = n / xp.maximum(n - 1., 1.)
            self.running_mean *= m
            self.running_mean += (1 - m) * mean64.astype(self.running_mean.dtype)
            self.running_var *= m
            self.running_var += (1 - m) * (adjust * var64).astype(self.running_var.dtype)
        self.retain_inputs((1,))
        return y.astype(x.dtype, copy=False),

    def backward(self, indexes, grad_outputs):
        gamma, = self.get_retained_inputs()
        gy = grad_outputs[0].array
        axis = self.axis
        expand = self.expand
        x_hat = self.x_hat
        dt = x_hat.dtype
        gbeta = gy.sum(axis=axis, dtype=dt)
        ggamma = (gy * x_hat).sum(axis=axis, dtype=dt)
        gbeta_all, ggamma_all = _pack_allreduce(self.comm, [gbeta, ggamma])
        coef = (gamma.array * self.inv_std)[expand]
        gx = coef * (gy - (x_hat * ggamma_all.astype(dt)[expand]
                           + gbeta_all.astype(dt)[expand]) / self.n_total.astype(dt))
        return (variable.Variable(gx.astype(gy.dtype, copy=False)),
                variable.Variable(ggamma.astype(gamma.dtype, copy=False)),
                variable.Variable(gbeta.astype(gamma.dtype, copy=False)))


def multi_node_batch_normalization(x, gamma, beta, comm, eps=2e-5, running_mean=None,
                                   running_var=None, decay=0.9):
    """Batch normalization whose statistics cover the batches of every rank of `comm`.

    Args:
        x: Input of shape `(N, C, ...)`.
        gamma, beta: Scale and shift of shape `(C,)`.
        comm: The communicator.
        eps (float): Added to the variance.
        running_mean, running_var (numpy.ndarray): Updated in place when given.
        decay (float): Decay of the running statistics.
    """
    return MultiNodeBatchNormalizationFunction(
        comm, eps, running_mean, running_var, decay).apply((x, gamma, beta))[0]
