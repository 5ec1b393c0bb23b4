"""`cupy.random` of the test double: one generator per device, drawing device arrays.

The draws come from a `numpy.random.RandomState` held per device (not NumPy's global
generator), so code that seeds or draws through `numpy.random` does not reach it; the
streams differ from real CuPy's (same seed, other numbers).
"""
import os

import numpy

from . import _core


def _param(x):
    if type(x) is _core.ndarray:
        _core._check_device(x)
        return x._a
    return x


def _size(size):
    if size is not None and not isinstance(size, (tuple, list)):
        size = (int(size),)
    return None if size is None else tuple(int(s) for s in size)


def _float_out(a, dtype):
    dtype = numpy.dtype(float if dtype is None else dtype)
    if dtype.char not in 'efd':
        raise TypeError('cupy.random only supports float16, float32 and float64, '
                        'got {}'.format(dtype))
    return _core._new(numpy.asarray(a).astype(dtype, copy=False))


class RandomState:
    """`cupy.random.RandomState`: draws device arrays from its own stream."""

    def __init__(self, seed=None, method=None):
        self._rs = numpy.random.RandomState()
        self.seed(seed)

    def seed(self, seed=None):
        if seed is None:
            env = os.environ.get('CUPY_SEED')
            seed = None if env is None else int(env)
        if isinstance(seed, _core.ndarray):
            seed = int(seed.get().ravel()[0])
        # int arithmetic: NumPy 1.26 turns numpy.uint64(seed) % (2 ** 32) into a float64
        self._rs.seed(None if seed is None else int(seed) % (2 ** 32))

    # continuous
    def normal(self, loc=0.0, scale=1.0, size=None, dtype=float):
        return _float_out(self._rs.normal(_param(loc), _param(scale), _size(size)), dtype)

    def standard_normal(self, size=None, dtype=float):
        return _float_out(self._rs.standard_normal(_size(size)), dtype)

    def randn(self, *size, **kwargs):
        return _float_out(self._rs.standard_normal(size or None), kwargs.get('dtype', float))

    def uniform(self, low=0.0, high=1.0, size=None, dtype=float):
        return _float_out(self._rs.uniform(_param(low), _param(high), _size(size)), dtype)

    def random_sample(self, size=None, dtype=float):
        return _float_out(self._rs.random_sample(_size(size)), dtype)

    random = random_sample

    def rand(self, *size, **kwargs):
        return _float_out(self._rs.random_sample(size or None), kwargs.get('dtype', float))

    def interval(self, mx, size):
        return _core._new(self._rs.randint(0, int(mx) + 1, _size(size)).astype(numpy.int32))

    def randint(self, low, high=None, size=None, dtype=int):
        return _core._new(numpy.asarray(self._rs.randint(low, high, _size(size), dtype=dtype)))

    def choice(self, a, size=None, replace=True, p=None):
        return _core._new(numpy.asarray(self._rs.choice(_param(a), _size(size), replace,
                                                        _param(p))))

    def permutation(self, num):
        return _core._new(self._rs.permutation(_param(num)))

    def shuffle(self, a):
        if type(a) is not _core.ndarray:
            raise TypeError('The array must be cupy.ndarray')
        self._rs.shuffle(a._a)

    def __getattr__(self, name):
        # the other distributions (gamma, beta, binomial, ...): same arguments as NumPy's
        # plus CuPy's `dtype` for the float-valued ones
        f = getattr(self._rs, name, None)
        if f is None or name.startswith('_') or name in ('get_state', 'set_state'):
            raise AttributeError(name)

        def draw(*args, dtype=None, **kwargs):
            args = tuple(_param(a) for a in args)
            kwargs = {k: _param(v) for k, v in kwargs.items()}
            r = numpy.asarray(f(*args, **kwargs))
            if dtype is not None:
                r = r.astype(dtype)
            return _core._new(r)
        draw.__name__ = name
        return draw


_states = {}


def get_random_state():
    dev = _core.current_device_id()
    rs = _states.get(dev)
    if rs is None:
        rs = _states[dev] = RandomState()
    return rs


def set_random_state(rs):
    _states[_core.current_device_id()] = rs


def reset_states():
    _states.clear()


def seed(seed=None):
    get_random_state().seed(seed)


class Generator:
    """`cupy.random.Generator` (a small subset: random, standard_normal, integers,
    uniform, normal)."""

    def __init__(self, bit_generator=None):
        self._g = numpy.random.default_rng(bit_generator)

    def random(self, size=None, dtype=numpy.float64, out=None):
        return _float_out(self._g.random(_size(size)), dtype)

    def standard_normal(self, size=None, dtype=numpy.float64, out=None):
        return _float_out(self._g.standard_normal(_size(size)), dtype)

    def normal(self, loc=0.0, scale=1.0, size=None):
        return _float_out(self._g.normal(_param(loc), _param(scale), _size(size)), None)

    def uniform(self, low=0.0, high=1.0, size=None, dtype=numpy.float64):
        return _float_out(self._g.uniform(_param(low), _param(high), _size(size)), dtype)

    def integers(self, low, high=None, size=None, dtype=numpy.int64, endpoint=False):
        return _core._new(numpy.asarray(self._g.integers(low, high, _size(size), dtype,
                                                         endpoint)))


def default_rng(seed=None):
    return Generator(seed)


def _global(name):
    def f(*args, **kwargs):
        return getattr(get_random_state(), name)(*args, **kwargs)
    f.__name__ = name
    return f


for _name in ('normal', 'standard_normal', 'randn', 'uniform', 'random_sample', 'random',
              'rand', 'randint', 'choice', 'permutation', 'shuffle', 'gamma', 'beta',
              'binomial', 'exponential', 'poisson', 'lognormal', 'gumbel', 'laplace',
              'logistic', 'standard_gamma', 'standard_exponential', 'standard_cauchy',
              'standard_t', 'chisquare', 'dirichlet', 'geometric', 'f', 'multinomial',
              'multivariate_normal', 'negative_binomial', 'noncentral_chisquare', 'pareto',
              'power', 'rayleigh', 'triangular', 'vonmises', 'wald', 'weibull', 'zipf',
              'hypergeometric', 'logseries', 'bernoulli'):
    globals()[_name] = _global(_name)
random_integers = _global('random_integers')
ranf = sample = random_sample  # noqa: F821
