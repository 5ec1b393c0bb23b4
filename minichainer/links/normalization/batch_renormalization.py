"""The batch renormalization layer `BatchRenormalization`."""
from minichainer import configuration
from minichainer.links.normalization.batch_normalization import BatchNormalization
from minichainer.links.normalization.batch_normalization import statistics_step
from minichainer.links.normalization import affine

from minichainer.functions.normalization import batch_normalization as _bn
from minichainer.functions.normalization import batch_renormalization as _brn


class BatchRenormalization(BatchNormalization):
    """Batch renormalization (Ioffe, 2017) on outputs of linear or convolution layers.

    In training mode the batch statistics are corrected towards the running ones by
    `r = clip(sigma_B / sigma, 1/rmax, rmax)` and `d = clip((mu_B - mu) / sigma,
    -dmax, dmax)` (see [`batch_renormalization`][minichainer.functions.normalization.batch_renormalization.batch_renormalization])
    and the running statistics `avg_mean`/`avg_var` are updated; in test mode it is
    [`fixed_batch_normalization`][minichainer.functions.normalization.batch_normalization.fixed_batch_normalization]
    with those statistics. `rmax=1, dmax=0` (the defaults) give plain batch normalization.

    Args:
        size (int or tuple): Shape of the statistics (channels).
        rmax (float): Largest allowed correction `r` of the standard deviation.
        dmax (float): Largest allowed correction `d` of the mean.

    `decay`, `eps`, `dtype`, `use_gamma`, `use_beta`, `initial_gamma`,
    `initial_beta`, `initial_avg_mean` and `initial_avg_var` are as in
    [`BatchNormalization`][minichainer.links.normalization.batch_normalization.BatchNormalization].
    The attributes `r` and `d` are always None (kept as in Chainer, which never sets them).
    """

    def __init__(self, size, rmax=1, dmax=0, decay=0.9, eps=2e-5, dtype=None,
                 use_gamma=True, use_beta=True, initial_gamma=None, initial_beta=None,
                 initial_avg_mean=None, initial_avg_var=None):
        # Chainer 7.8.1 passes initial_avg_mean/var positionally into the axis /
        # initial_avg_mean slots of BatchNormalization; keywords here do what the
        # arguments say.
        super().__init__(
            size, decay=decay, eps=eps, dtype=dtype, use_gamma=use_gamma,
            use_beta=use_beta, initial_gamma=initial_gamma, initial_beta=initial_beta,
            initial_avg_mean=initial_avg_mean, initial_avg_var=initial_avg_var)
        self.rmax = rmax
        self.dmax = dmax
        self.r = None
        self.d = None

    def forward(self, x, finetune=False):
        """Normalize `x`; `finetune=True` (training mode only) accumulates exact
        population statistics over the batches since
        [`start_finetuning`][minichainer.links.normalization.batch_normalization.BatchNormalization.start_finetuning]."""
        gamma, beta = affine.affine_or_constants(self, self.avg_mean.shape, x.dtype)

        if not configuration.config.train:
            return _bn.fixed_batch_normalization(
                x, gamma, beta, self.avg_mean, self.avg_var, self.eps)

        decay, recomputing = statistics_step(self, finetune)
        avg_mean = self.avg_mean
        avg_var = self.avg_var
        update_statistics = True
        config = configuration.config
        if recomputing:
            # re-running forward for backward (F.forget): use the statistics the first
            # pass saw and leave them unchanged
            avg_mean = self._prev_avg_mean
            avg_var = self._prev_avg_var
            update_statistics = False
        elif getattr(config, '_will_recompute', False):
            self._prev_avg_mean = avg_mean.copy()
            self._prev_avg_var = avg_var.copy()
        return _brn.batch_renormalization(
            x, gamma, beta, self.rmax, self.dmax, self.eps, avg_mean, avg_var, decay,
            update_statistics=update_statistics)
