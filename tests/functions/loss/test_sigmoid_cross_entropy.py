import numpy
import pytest

import minichainer.functions as F
from minichainer import gradient_check
from minichainer.utils import type_check


def _ref(x, t, normalize=True, reduce='mean'):
    x = x.astype(numpy.float64)
    p = 1 / (1 + numpy.exp(-x))
    loss = -(t * numpy.log(p) + (1 - t) * numpy.log(1 - p))
    loss[t == -1] = 0
    if reduce == 'no':
        return loss
    count = max((t != -1).sum(), 1) if normalize else max(len(x), 1)
    return loss.sum() / count


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
@pytest.mark.parametrize('normalize', [True, False])
@pytest.mark.parametrize('reduce', ['mean', 'no'])
def test_sigmoid_cross_entropy(dtype, normalize, reduce):
    rng = numpy.random.RandomState(0)
    x = rng.uniform(-3, 3, (4, 3)).astype(dtype)
    t = rng.randint(-1, 2, (4, 3)).astype(numpy.int32)
    y = F.sigmoid_cross_entropy(x, t, normalize, reduce)
    assert y.dtype == dtype
    tol = {'atol': 5e-3, 'rtol': 5e-2} if dtype == numpy.float16 else {'rtol': 1e-5}
    numpy.testing.assert_allclose(y.array, _ref(x, t, normalize, reduce), **tol)
    gy = None if reduce == 'mean' else rng.uniform(-1, 1, x.shape).astype(dtype)
    f = (lambda x, t: F.sigmoid_cross_entropy(x, t, normalize, reduce))
    opt = ({'dtype': numpy.float64, 'atol': 5e-3, 'rtol': 5e-2}
           if dtype == numpy.float16 else {'atol': 1e-3, 'rtol': 1e-2})
    gradient_check.check_backward(f, (x, t), gy, **opt)
    if dtype == numpy.float64:
        ggx = rng.uniform(-1, 1, x.shape)
        gradient_check.check_double_backward(f, (x, t), gy, (ggx,), atol=1e-6, rtol=1e-5)


def test_sigmoid_cross_entropy_stable_and_errors():
    x = numpy.array([[1e4, -1e4]], numpy.float32)
    t = numpy.array([[0, 1]], numpy.int32)
    y = F.sigmoid_cross_entropy(x, t, reduce='no')
    numpy.testing.assert_allclose(y.array, [[1e4, 1e4]])
    with pytest.raises(ValueError):
        F.sigmoid_cross_entropy(x, t, reduce='sum')
    with pytest.raises(ValueError, match='2'):
        F.sigmoid_cross_entropy(x, numpy.array([[0, 2]], numpy.int32))
    with pytest.raises(type_check.InvalidType):
        F.sigmoid_cross_entropy(x, t.astype('f'))
