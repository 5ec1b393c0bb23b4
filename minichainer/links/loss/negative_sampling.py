"""The negative sampling loss layer `NegativeSampling` (word2vec's output layer)."""
import numbers

import numpy

import minichainer
from minichainer.functions.loss import negative_sampling
from minichainer import link
from minichainer.links._check import check_size
from minichainer.utils import argument
from minichainer.utils import walker_alias
from minichainer import variable


def count_array(owner, counts, dtype):
    """`counts` as a 1-D array of `dtype`, checked to be usable word frequencies."""
    try:
        p = numpy.array(counts, dtype)
    except (TypeError, ValueError):
        raise TypeError('{}: counts must be a sequence of numbers (one count per word id), '
                        'got {!r}'.format(owner, counts)) from None
    if p.ndim != 1 or p.size == 0:
        raise ValueError('{}: counts must be a non-empty 1-D sequence (one count per word '
                         'id), got shape {}'.format(owner, p.shape))
    if not numpy.isfinite(p).all() or (p < 0).any() or not p.sum() > 0:
        raise ValueError('{}: counts must be finite, non-negative and not all zero, got '
                         '{!r}'.format(owner, counts))
    return p


def check_sample_size(owner, sample_size):
    if (isinstance(sample_size, bool) or not isinstance(sample_size, numbers.Integral)
            or sample_size <= 0):
        raise ValueError('{}: sample_size must be a positive int, got {!r}'.format(
            owner, sample_size))
    return int(sample_size)


def accept_sampler(sampler, visitor):
    # Send the sampler's tables to the visitor's device along with the link's parameters.
    sampler.threshold = visitor.visit_array(sampler.threshold)
    sampler.values = visitor.visit_array(sampler.values)


class NegativeSampling(link.Link):
    """Negative sampling loss layer: the output layer of a word2vec skip-gram/CBOW model.

    Holds the output embedding `W` and a `WalkerAlias`
    `sampler` that draws negative word ids with probability proportional to
    `counts[i] ** power`; calling the link runs
    [`negative_sampling`][minichainer.functions.loss.negative_sampling.negative_sampling].

    Args:
        in_size (int): Dimension of the input vectors.
        counts (sequence of numbers): Frequency of each word id (its length is the
            vocabulary size).
        sample_size (int): Number of negative samples drawn per example.
        power (float): Exponent applied to the counts before sampling.
        dtype (numpy.dtype): Dtype in which `counts ** power` is computed (default:
            `config.dtype`). As in Chainer, `W` itself always has `config.dtype`.

    Attributes:
        W (Parameter): `(len(counts), in_size)` weight, initialized to 0.
        sampler (WalkerAlias): The negative sampler.
        sample_size (int): Number of negative samples.
    """

    def __init__(self, in_size, counts, sample_size, power=0.75, dtype=None):
        super().__init__()
        check_size('NegativeSampling', 'in_size', in_size)
        self.sample_size = check_sample_size('NegativeSampling', sample_size)
        dtype = minichainer.get_dtype(dtype)
        p = count_array('NegativeSampling', counts, dtype)
        numpy.power(p, dtype.type(power), out=p)
        self.sampler = walker_alias.WalkerAlias(p)
        with self.init_scope():
            self.W = variable.Parameter(0, (p.size, in_size))

    def device_resident_accept(self, visitor):
        super().device_resident_accept(visitor)
        accept_sampler(self.sampler, visitor)

    def forward(self, x, t, reduce='sum', **kwargs):
        """forward(x, t, reduce='sum', *, return_samples=False)

        Negative sampling loss of inputs `x` (batch, in_size) for the word ids `t`
        (batch,); rows whose `t` is -1 are ignored.

        Args:
            x (Variable or ndarray): Input vectors.
            t (Variable or ndarray): int32 target word ids.
            reduce (str): `'sum'` (a scalar) or `'no'` (one loss per example).
            return_samples (bool): Also return the `(batch, sample_size + 1)` int32
                array of word ids used: column 0 is `t`, the others the negatives.

        Returns:
            Variable, or `(loss, samples)` when `return_samples`.
        """
        return_samples = False
        if kwargs:
            return_samples, = argument.parse_kwargs(kwargs, ('return_samples', False))
        # Looked up on the module at call time so that it can be patched, as in Chainer.
        return negative_sampling.negative_sampling(
            x, t, self.W, self.sampler.sample, self.sample_size, reduce=reduce,
            return_samples=return_samples)
