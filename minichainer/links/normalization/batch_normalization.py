"""The batch normalization layer `BatchNormalization`."""
import numpy

import minichainer
from minichainer import configuration
from minichainer import initializers
from minichainer import link
from minichainer.links.normalization import affine
from minichainer.functions.normalization import batch_normalization as _bn


class BatchNormalization(link.Link):
    """Batch normalization with learnable `gamma`/`beta` and running statistics.

    In training mode (`config.train`) the input is normalized with the batch statistics
    and the persistent running averages `avg_mean`/`avg_var` are updated with
    `decay` (or accumulated as exact averages over `N` batches with
    `finetune=True`). In test mode the running statistics are used and nothing changes.

    Args:
        size (int, tuple or None): Shape of the statistics (channels). None (with
            `axis`) defers creation to the first call.
        decay (float): Decay rate of the running averages.
        eps (float): Added to the variance.
        dtype: Dtype of the parameters and statistics (`mixed16` maps to float32).
        use_gamma, use_beta (bool): Whether to learn the scale / shift.
        initial_gamma, initial_beta: Initializers (defaults 1 and 0).
        axis (int or tuple): Axes to aggregate over (default: all but axis 1).
        initial_avg_mean, initial_avg_var: Initial statistics (defaults 0 and 1).

    Raises:
        RuntimeError: neither `size` nor `axis` is given.
    """

    gamma = None
    beta = None
    avg_mean = None
    avg_var = None

    def __init__(self, size=None, decay=0.9, eps=2e-5, dtype=None, use_gamma=True,
                 use_beta=True, initial_gamma=None, initial_beta=None, axis=None,
                 initial_avg_mean=None, initial_avg_var=None):
        super().__init__()
        if size is None and axis is None:
            raise RuntimeError('BatchNormalization: size or axis is required')
        self._initial_avg_mean = initial_avg_mean
        self._initial_avg_var = initial_avg_var
        self.N = 0
        self.register_persistent('N')
        self.decay = decay
        self.eps = eps
        if isinstance(axis, int):
            axis = (axis,)
        self.axis = axis
        self._highprec_dtype = minichainer.get_dtype(dtype, map_mixed16=numpy.float32)
        with self.init_scope():
            if use_gamma:
                self.gamma = affine.affine_parameter(initial_gamma, 1, self._highprec_dtype)
            if use_beta:
                self.beta = affine.affine_parameter(initial_beta, 0, self._highprec_dtype)
        if size is None:
            self.avg_mean = None
            self.avg_var = None
        else:
            self._initialize_params(size)
        # registered even while None (size given later by the first input), as in
        # Chainer, so a deserializer can fill them in
        self.register_persistent('avg_mean')
        self.register_persistent('avg_var')

    def _initialize_params(self, shape):
        dtype = self._highprec_dtype
        self.avg_mean = _init_array(self._initial_avg_mean, 0, shape, dtype)
        self._initial_avg_mean = None
        self.avg_var = _init_array(self._initial_avg_var, 1, shape, dtype)
        self._initial_avg_var = None
        if self.gamma is not None:
            self.gamma.initialize(shape)
        if self.beta is not None:
            self.beta.initialize(shape)

    @property
    def printable_specs(self):
        yield 'size', self.avg_mean.shape[0]
        yield 'decay', self.decay
        yield 'eps', self.eps
        yield 'dtype', self.avg_mean.dtype
        yield 'use_gamma', self.gamma is not None
        yield 'use_beta', self.beta is not None

    def forward(self, x, **kwargs):
        """forward(self, x, finetune=False)

        Normalize `x`; `finetune=True` (training mode only) accumulates exact
        population statistics.
        """
        if 'test' in kwargs:
            raise ValueError("BatchNormalization: the test argument is not supported "
                             "anymore; use minichainer.using_config('train', False)")
        finetune = kwargs.pop('finetune', False)
        if kwargs:
            raise TypeError('BatchNormalization.forward() got unexpected keyword '
                            'argument(s): {}'.format(', '.join(sorted(kwargs))))
        if self.avg_mean is None:
            param_shape = tuple(d for i, d in enumerate(x.shape) if i not in self.axis)
            self._initialize_params(param_shape)

        gamma, beta = affine.affine_or_constants(self, self.avg_mean.shape, self._highprec_dtype)

        if configuration.config.train:
            decay, recomputing = statistics_step(self, finetune)
            avg_mean = avg_var = None
            if not recomputing:
                avg_mean = self.avg_mean
                avg_var = self.avg_var
            return _bn.batch_normalization(
                x, gamma, beta, eps=self.eps, running_mean=avg_mean,
                running_var=avg_var, decay=decay, axis=self.axis)
        return _bn.fixed_batch_normalization(
            x, gamma, beta, self.avg_mean, self.avg_var, self.eps, axis=self.axis)

    def start_finetuning(self):
        """Reset the batch count `N` before accumulating population statistics again."""
        self.N = 0


def statistics_step(link, finetune):
    """The decay of the running statistics for one training forward of `link` (a batch
    normalization link), and whether this forward is a recomputation (`F.forget`).

    With `finetune` the step is counted in `link.N` and the decay is `1 - 1/N`
    (exact population statistics); a recomputation leaves `N` as it was.

    Returns:
        tuple: `(decay, recomputing)`; the caller must not update the statistics
        when `recomputing`.
    """
    if finetune:
        link.N += 1
        decay = 1. - 1. / link.N
    else:
        decay = link.decay
    recomputing = getattr(configuration.config, 'in_recomputing', False)
    if recomputing and finetune:
        link.N -= 1
    return decay, recomputing


def _init_array(initializer, default_value, size, dtype):
    if initializer is None:
        initializer = default_value
    initializer = initializers.get_initializer(initializer)
    return initializers.generate_array(initializer, size, numpy, dtype=dtype)
