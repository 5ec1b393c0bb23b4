"""Walker's alias method (`chainer.utils.WalkerAlias`): O(1) sampling from a discrete
distribution, with the same table and the same random draws as Chainer."""
import numpy

from minichainer import backend


class WalkerAlias:
    """Sample indices `0..n-1` with probabilities proportional to `probs`.

    Each sample draws one `uniform(0, n)` number from numpy's global RNG (the device's
    generator once the tables are on a GPU): its integer part picks a column of the table
    and its fraction chooses between the column's two entries.
    """

    def __init__(self, probs):
        prob = numpy.array(probs, numpy.float32)
        if prob.ndim != 1 or prob.size == 0:
            raise ValueError('WalkerAlias: probs must be a non-empty 1-D sequence, got shape '
                             '{}'.format(prob.shape))
        if (prob < 0).any() or prob.sum() <= 0:
            raise ValueError('WalkerAlias: probs must be non-negative with a positive sum')
        prob /= numpy.sum(prob)
        n = len(prob)
        threshold = numpy.zeros(n, numpy.float32)
        values = numpy.zeros(n * 2, numpy.int32)
        # Columns are filled in order of increasing probability.  Each column keeps its own
        # entry below its threshold; the columns that are still short are topped up ("the
        # right side") by the large entries coming later.
        filled, topped = 0, 0
        for p_i, i in sorted(zip(prob.tolist(), range(n))):
            # Float64 arithmetic on the float32 probabilities, as Chainer's table on
            # NumPy 1.x (where float32 scalar * int promotes to float64).
            mass = p_i * n
            while mass > 1 and topped < filled:
                values[topped * 2 + 1] = i
                mass -= 1.0 - float(threshold[topped])
                topped += 1
            threshold[filled] = mass
            values[filled * 2] = i
            filled += 1
        values[topped * 2 + 1::2] = 0
        self.threshold = threshold
        self.values = values

    @property
    def device(self):
        """The device of the tables (the CPU until `to_device` sends them elsewhere)."""
        return backend.get_device_from_array(self.threshold)

    @property
    def use_gpu(self):
        return not isinstance(self.threshold, numpy.ndarray)

    def to_cpu(self):
        return self.to_device(backend.CpuDevice())

    def to_gpu(self, device=None):
        """Send the tables to GPU `device` (an id; the current GPU when None)."""
        from minichainer.backends import cuda
        if device is None:
            device = getattr(cuda.Device(), 'id', 0)   # the current GPU
        return self.to_device('@cupy:{}'.format(int(device)))

    def to_device(self, device):
        device = backend.get_device(device)
        self.threshold = device.send(self.threshold)
        self.values = device.send(self.values)
        return self

    def sample(self, shape):
        """Return an int32 array of the given shape of sampled indices, drawn with the
        random generator of the tables' device (numpy's global RNG on the CPU)."""
        return self.sample_xp(backend.get_array_module(self.threshold), shape)

    def sample_xp(self, xp, shape):
        threshold = self.threshold
        pb = xp.random.uniform(0, len(threshold), shape)
        index = pb.astype(numpy.int32)
        fraction = pb.astype(threshold.dtype) - index.astype(threshold.dtype)
        right = (threshold[index] < fraction).astype(numpy.int32)
        return self.values[index * 2 + right]
