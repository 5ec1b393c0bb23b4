"""The Orthogonal initializer (Saxe et al., https://arxiv.org/abs/1312.6120)."""
import numpy

from minichainer import backend
from minichainer import initializer
from minichainer.initializers._rng import assign
from minichainer.initializers._rng import parse_rng

# mode -> (input dim may not exceed output dim, output dim may not exceed input dim)
_MODES = {
    'auto': (False, False),
    'projection': (False, True),
    'embedding': (True, False),
    'basis': (True, True),
}


class Orthogonal(initializer.Initializer):
    """Fill an array with a (semi-)orthogonal matrix times `scale`.

    A standard-normal matrix of shape `(len(array), prod(array.shape[1:]))` is drawn
    (float64, numpy's global RNG or `rng`), decomposed by QR (of its transpose when it has
    more columns than rows), signs fixed so that R has a non-negative diagonal, and Q is
    written into the array. A 0-dim array gets `+scale` or `-scale`. As in Chainer, the
    matrix is drawn and decomposed on the host (NumPy) also for a CuPy array, into which
    the result is copied once.

    Args:
        scale (float): Multiplier of the orthogonal matrix.
        dtype: Data type specifier.
        mode (str): `'auto'`, `'projection'`, `'embedding'` or `'basis'`: which
            shapes are accepted (see Chainer 7).
        rng: A `numpy.random.RandomState`-like generator.
    """

    def __init__(self, scale=1.1, dtype=None, mode='auto', **kwargs):
        self.scale = scale
        self.mode = mode
        self.rng = parse_rng(kwargs, 'Orthogonal')
        try:
            self._checks = _MODES[mode]
        except (KeyError, TypeError):
            raise ValueError('Orthogonal: mode must be one of {}, got {!r}'.format(
                ', '.join(repr(m) for m in _MODES), mode)) from None
        super().__init__(dtype)

    def __call__(self, array):
        self._check_dtype(array)
        rng = numpy.random if self.rng is None else self.rng
        if not array.shape:
            randint = getattr(rng, 'randint', None) or rng.integers  # RandomState/Generator
            array[...] = self.scale * (2 * int(randint(2)) - 1)
            return
        if not array.size:
            raise ValueError('Orthogonal: Array to be initialized must be non-empty, '
                             'got shape {}'.format(array.shape))
        out_dim = len(array)
        in_dim = 1
        for n in array.shape[1:]:
            in_dim *= n
        if (in_dim > out_dim and self._checks[0]) or (in_dim < out_dim and self._checks[1]):
            raise ValueError(
                'Orthogonal: Cannot make orthogonal {}. shape = {}, interpreted as {}-dim '
                'input and {}-dim output.'.format(self.mode, array.shape, in_dim, out_dim))
        transpose = in_dim > out_dim
        a = rng.normal(size=(out_dim, in_dim))
        if not isinstance(a, numpy.ndarray):  # a CuPy generator given as rng
            a = backend.CpuDevice().send(a)
        if transpose:
            a = a.T
        q, r = numpy.linalg.qr(a)
        q *= numpy.copysign(self.scale, numpy.diag(r))
        if transpose:
            q = q.T
        assign(array, q.reshape(array.shape).astype(array.dtype, copy=False))
