"""The decorrelated batch normalization layer `DecorrelatedBatchNormalization`."""
import warnings

import numpy

from minichainer import backend
from minichainer import configuration
from minichainer import link
from minichainer import serializer as serializer_mod
from minichainer.links._check import check_size
from minichainer.links.normalization.batch_normalization import statistics_step
from minichainer.utils import argument

from minichainer.functions.normalization import decorrelated_batch_normalization as _dbn


class DecorrelatedBatchNormalization(link.Link):
    """Decorrelated batch normalization: group-wise ZCA whitening of the channels.

    Training mode whitens with the batch statistics
    ([`decorrelated_batch_normalization`][minichainer.functions.normalization.decorrelated_batch_normalization.decorrelated_batch_normalization])
    and keeps running averages `avg_mean` (groups, C) and `avg_projection` (groups, C, C), where
    `C = size // groups`; with `finetune=True` they become exact averages over the
    `N` batches seen since
    [`start_finetuning`][minichainer.links.normalization.decorrelated_batch_normalization.DecorrelatedBatchNormalization.start_finetuning].
    Test mode applies
    [`fixed_decorrelated_batch_normalization`][minichainer.functions.normalization.decorrelated_batch_normalization.fixed_decorrelated_batch_normalization]
    with them. The link has no parameters.

    Args:
        size (int): Number of channels.
        groups (int): Number of channel groups whitened independently; must divide
            `size`.
        decay (float): Decay rate of the running averages.
        eps (float): Added to the diagonal of the covariance.
        dtype: Dtype of the running statistics (passed to NumPy as is).

    Attributes:
        avg_mean, avg_projection (ndarray): Population statistics (persistent).
        N (int): Number of fine-tuning batches (persistent).
        groups, decay, eps: As given.

    Raises:
        TypeError, ValueError: bad `size` or `groups`, or `groups` does not divide
            `size`.
    """

    def __init__(self, size, groups=16, decay=0.9, eps=2e-5, dtype=numpy.float32):
        super().__init__()
        name = 'DecorrelatedBatchNormalization'
        check_size(name, 'size', size)
        check_size(name, 'groups', groups)
        if groups == 0 or size % groups != 0:
            raise ValueError('{}: groups must be a positive divisor of size ({}), got '
                             '{}'.format(name, size, groups))
        per_group = size // groups
        self.avg_mean = numpy.zeros((groups, per_group), dtype=dtype)
        self.register_persistent('avg_mean')
        projection = numpy.zeros((groups, per_group, per_group), dtype=dtype)
        diag = numpy.arange(per_group)
        projection[:, diag, diag] = 1
        self.avg_projection = projection
        self.register_persistent('avg_projection')
        self.N = 0
        self.register_persistent('N')
        self.decay = decay
        self.eps = eps
        self.groups = groups

    def serialize(self, serializer):
        if isinstance(serializer, serializer_mod.Deserializer):
            serializer = _OldStatisticsReader(serializer, self.groups)
        super().serialize(serializer)

    def forward(self, x, **kwargs):
        """forward(self, x, *, finetune=False)

        Whiten `x`; `finetune=True` (training mode only) accumulates exact
        population statistics.
        """
        finetune, = argument.parse_kwargs(kwargs, ('finetune', False))
        if not configuration.config.train:
            return _dbn.fixed_decorrelated_batch_normalization(
                x, self.avg_mean, self.avg_projection, groups=self.groups)

        decay, recomputing = statistics_step(self, finetune)
        avg_mean = avg_projection = None
        if not recomputing:
            avg_mean = self.avg_mean
            avg_projection = self.avg_projection
        return _dbn.decorrelated_batch_normalization(
            x, groups=self.groups, eps=self.eps, running_mean=avg_mean,
            running_projection=avg_projection, decay=decay)

    def start_finetuning(self):
        """Reset the batch count `N` before accumulating population statistics again."""
        self.N = 0


class _OldStatisticsReader(serializer_mod.Deserializer):
    """Loads statistics saved by Chainer < 7 (one shared `avg_mean` (C,) and
    `avg_projection` (C, C)) by repeating them for every group."""

    _NDIM = {'avg_mean': 2, 'avg_projection': 3}

    def __init__(self, base, groups):
        self.base = base
        self.groups = groups

    def __repr__(self):
        return '_OldStatisticsReader({!r}, groups={})'.format(self.base, self.groups)

    def __getitem__(self, key):
        return self.base[key]

    def __call__(self, key, value):
        ndim = self._NDIM.get(key)
        if ndim is None:
            return self.base(key, value)
        loaded = self.base(key, None)
        if loaded is None:  # absent (strict=False) or stored as None
            return value
        if loaded.ndim == ndim - 1:
            if self.groups != 1:
                warnings.warn(
                    'DecorrelatedBatchNormalization: {} was saved by an older version '
                    'whose statistics were shared by all groups; it is repeated for '
                    'each of the {} groups'.format(key, self.groups))
            loaded = numpy.broadcast_to(loaded, (self.groups,) + loaded.shape)
        elif loaded.ndim != ndim:
            raise ValueError('DecorrelatedBatchNormalization: {} must be saved with {} '
                             'dimensions, got shape {}'.format(key, ndim, loaded.shape))
        if value is None:
            return loaded
        if loaded.shape != value.shape:
            raise ValueError('DecorrelatedBatchNormalization: {} has shape {} in the '
                             'file, expected {}'.format(key, loaded.shape, value.shape))
        backend.copyto(value, loaded)
        return value
