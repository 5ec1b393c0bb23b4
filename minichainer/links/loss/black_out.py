"""The BlackOut loss layer `BlackOut`."""
import numpy

from minichainer.functions.loss import black_out
from minichainer import link
from minichainer.links._check import check_size
from minichainer.links.loss import negative_sampling as _ns
from minichainer.utils import walker_alias
from minichainer import variable


class BlackOut(link.Link):
    """BlackOut loss layer (a sampled approximation of softmax cross entropy).

    Negative word ids are drawn with probability proportional to `counts` by a
    `WalkerAlias` `sampler`; calling the link runs
    [`black_out`][minichainer.functions.loss.black_out.black_out] with `reduce='mean'`.

    Args:
        in_size (int): Dimension of the input vectors.
        counts (sequence of numbers): Frequency of each word id.
        sample_size (int): Number of negative samples per example.

    Attributes:
        W (Parameter): `(len(counts), in_size)` weight. As in Chainer it
            is created without an initializer, i.e. **filled with NaN**: set it (e.g.
            `link.W.array[...] = ...`) before training.
        sampler (WalkerAlias): The negative sampler.
        sample_data: When not None, used as the negative samples instead of drawing
            (for tests).
    """

    sample_data = None

    def __init__(self, in_size, counts, sample_size):
        super().__init__()
        check_size('BlackOut', 'in_size', in_size)
        self.sample_size = _ns.check_sample_size('BlackOut', sample_size)
        p = _ns.count_array('BlackOut', counts, numpy.float32)
        self.sampler = walker_alias.WalkerAlias(p)
        with self.init_scope():
            self.W = variable.Parameter(shape=(p.size, in_size))

    def device_resident_accept(self, visitor):
        super().device_resident_accept(visitor)
        _ns.accept_sampler(self.sampler, visitor)

    def forward(self, x, t):
        """BlackOut loss (a scalar Variable, averaged over the batch) of inputs `x`
        (batch, in_size) for the int32 word ids `t` (batch,)."""
        samples = self.sample_data
        if samples is None:
            samples = self.sampler.sample((x.shape[0], self.sample_size))
        samples = variable.Variable(samples, requires_grad=False)
        return black_out.black_out(x, t, self.W, samples)
