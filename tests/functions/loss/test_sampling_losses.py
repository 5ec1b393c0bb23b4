import numpy
import pytest

import minichainer.functions as F
from minichainer import gradient_check


def _softplus(v):
    return numpy.logaddexp(v, 0)


@pytest.mark.parametrize('reduce', ['sum', 'no'])
def test_negative_sampling(reduce):
    rng = numpy.random.RandomState(0)
    x = rng.randn(4, 3)
    t = numpy.array([0, 2, -1, 1], numpy.int32)
    W = rng.randn(5, 3)
    fixed = rng.randint(0, 5, (4, 3)).astype(numpy.int32)

    def sampler(shape):
        assert shape == (4, 3)
        return fixed.copy()

    y, samples = F.negative_sampling(x, t, W, sampler, 2, reduce=reduce,
                                     return_samples=True)
    numpy.testing.assert_array_equal(samples[:, 1:], fixed[:, 1:])
    numpy.testing.assert_array_equal(samples[:, 0], t)
    ref = numpy.zeros(4)
    for i in range(4):
        if t[i] == -1:
            continue
        ref[i] = _softplus(-W[t[i]].dot(x[i]))
        ref[i] += sum(_softplus(W[k].dot(x[i])) for k in fixed[i, 1:])
    numpy.testing.assert_allclose(y.array, ref.sum() if reduce == 'sum' else ref)
    gy = None if reduce == 'sum' else rng.randn(4)

    def f(x, W):
        return F.negative_sampling(x, t, W, sampler, 2, reduce=reduce)

    gradient_check.check_backward(f, (x, W), gy, atol=1e-6, rtol=1e-5)
    with pytest.raises(ValueError):
        F.negative_sampling(x, t, W, sampler, 2, reduce='mean')


@pytest.mark.parametrize('reduce', ['mean', 'no'])
def test_black_out(reduce):
    rng = numpy.random.RandomState(1)
    x = rng.randn(3, 4)
    t = numpy.array([0, 2, 1], numpy.int32)
    W = rng.randn(5, 4)
    samples = numpy.array([[1, 3], [4, 0], [2, 2]], numpy.int32)
    y = F.black_out(x, t, W, samples, reduce=reduce)
    ref = numpy.empty(3)
    for i in range(3):
        pos = W[t[i]].dot(x[i])
        neg = W[samples[i]].dot(x[i])
        logz = numpy.logaddexp.reduce(numpy.concatenate([[pos], neg]))
        ref[i] = -(pos - logz + numpy.log(1 - numpy.exp(neg - logz)).sum())
    numpy.testing.assert_allclose(y.array, ref.mean() if reduce == 'mean' else ref,
                                  rtol=1e-10)
    gy = None if reduce == 'mean' else rng.randn(3)
    gradient_check.check_backward(lambda x, W: F.black_out(x, t, W, samples, reduce),
                                  (x, W), gy, atol=1e-6, rtol=1e-5)
