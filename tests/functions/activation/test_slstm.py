import numpy
import pytest

import minichainer.functions as F
from minichainer import gradient_check
from minichainer.utils import type_check

from ._helpers import FLOAT_DTYPES, bwd_opts, fwd_tol


def _sigmoid(x):
    return 1 / (1 + numpy.exp(-x))


def _gates(x):
    r = x.reshape((len(x), x.shape[1] // 4, 4) + x.shape[2:])
    return [r[:, :, k] for k in range(4)]


@pytest.mark.parametrize('dtype', FLOAT_DTYPES)
def test_slstm(dtype):
    rng = numpy.random.RandomState(0)
    c1, c2 = (rng.uniform(-1, 1, (3, 2)).astype(dtype) for _ in range(2))
    x1, x2 = (rng.uniform(-1, 1, (3, 8)).astype(dtype) for _ in range(2))
    c, h = F.slstm(c1, c2, x1, x2)
    a1, i1, f1, o1 = _gates(x1.astype(numpy.float64))
    a2, i2, f2, o2 = _gates(x2.astype(numpy.float64))
    c_ref = (numpy.tanh(a1) * _sigmoid(i1) + numpy.tanh(a2) * _sigmoid(i2)
             + _sigmoid(f1) * c1 + _sigmoid(f2) * c2)
    h_ref = _sigmoid(o1 + o2) * numpy.tanh(c_ref)
    numpy.testing.assert_allclose(c.array, c_ref, **fwd_tol(dtype))
    numpy.testing.assert_allclose(h.array, h_ref, **fwd_tol(dtype))

    inputs = (c1, c2, x1, x2)
    gc = rng.uniform(-1, 1, c.shape).astype(dtype)
    gh = rng.uniform(-1, 1, h.shape).astype(dtype)
    gradient_check.check_backward(F.slstm, inputs, (gc, gh), **bwd_opts(dtype))
    ggs = tuple(rng.uniform(-1, 1, a.shape).astype(dtype) for a in inputs)
    gradient_check.check_double_backward(F.slstm, inputs, (gc, gh), ggs, **bwd_opts(dtype))


def test_slstm_batch_mismatch():
    z = numpy.zeros
    with pytest.raises(type_check.InvalidType):
        F.slstm(z((2, 2), 'f'), z((2, 2), 'f'), z((3, 8), 'f'), z((2, 8), 'f'))
