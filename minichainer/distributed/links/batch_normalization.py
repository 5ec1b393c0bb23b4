"""`MultiNodeBatchNormalization`: batch normalization over the batch of every rank."""
from minichainer import backend
from minichainer import configuration
from minichainer.distributed.functions import batch_normalization as mnbn
from minichainer.links.normalization import batch_normalization


class MultiNodeBatchNormalization(batch_normalization.BatchNormalization):
    """Batch normalization whose training-mode statistics are those of the union of the
    batches of every rank of `comm` (test mode uses the running statistics, as
    [`BatchNormalization`][minichainer.links.normalization.batch_normalization.BatchNormalization]).
    Parameters and persistent values (and so npz keys) are those of BatchNormalization.

    Args:
        size (int): Number of channels.
        comm: The communicator.
        decay, eps, dtype, use_gamma, use_beta, initial_gamma, initial_beta: As
            BatchNormalization.
        communication_backend (str): `'auto'` or `'mpi'` (the only backend here);
            ChainerMN's `'nccl'` raises `ValueError`.
    """

    def __init__(self, size, comm, decay=0.9, eps=2e-5, dtype=None, use_gamma=True,
                 use_beta=True, initial_gamma=None, initial_beta=None,
                 communication_backend='auto'):
        if communication_backend not in ('auto', 'mpi'):
            raise ValueError(
                "MultiNodeBatchNormalization: communication_backend must be 'auto' or "
                "'mpi' (no GPU/NCCL support), got {!r}".format(communication_backend))
        super().__init__(size, decay=decay, eps=eps, dtype=dtype, use_gamma=use_gamma,
                         use_beta=use_beta, initial_gamma=initial_gamma,
                         initial_beta=initial_beta)
        self.comm = comm
        self.communication_backend = communication_backend

    def __getstate__(self):
        d = super().__getstate__() if hasattr(super(), '__getstate__') else \
            self.__dict__.copy()
        d = dict(d)
        d['comm'] = None  # a communicator cannot be pickled
        return d

    def forward(self, x, finetune=False):
        if not configuration.config.train:
            return super().forward(x)
        xp = backend.get_array_module(self.avg_mean)
        gamma = self.gamma
        if gamma is None:
            gamma = xp.ones(self.avg_mean.shape, dtype=self._highprec_dtype)
        beta = self.beta
        if beta is None:
            beta = xp.zeros(self.avg_mean.shape, dtype=self._highprec_dtype)
        if finetune:
            self.N += 1
            decay = 1. - 1. / self.N
        else:
            decay = self.decay
        return mnbn.multi_node_batch_normalization(
            x, gamma, beta, self.comm, eps=self.eps, running_mean=self.avg_mean,
            running_var=self.avg_var, decay=decay)
