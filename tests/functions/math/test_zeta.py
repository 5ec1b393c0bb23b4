import numpy
import pytest

import minichainer
import minichainer.functions as F
from minichainer.utils import type_check

from _math_helpers import check_op, uniform

special = pytest.importorskip('scipy.special')


@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
def test_zeta(dtype):
    x = uniform((3, 2), dtype, 2., 4., seed=0)
    q = uniform((3, 2), dtype, 0.5, 2., seed=1)
    check_op(lambda v: F.zeta(x, v), lambda v: special.zeta(x, v), (q,), dtype)


def test_zeta_x_is_a_constant():
    # as Chainer 7.8.1: only q is an input of the graph
    x = minichainer.Variable(numpy.array([2., 3.]))
    q = minichainer.Variable(numpy.array([1., 2.]))
    y = F.zeta(x, q)
    assert len(y.creator.inputs) == 1
    F.sum(y).backward()
    assert x.grad is None
    numpy.testing.assert_allclose(q.grad, -x.array * special.zeta(x.array + 1, q.array))


def test_zeta_errors(monkeypatch):
    import sys
    with pytest.raises(type_check.InvalidType):
        F.zeta(numpy.ones(2, numpy.float32), numpy.ones(2, numpy.int32))
    monkeypatch.setitem(sys.modules, 'scipy', None)
    monkeypatch.setitem(sys.modules, 'scipy.special', None)
    with pytest.raises(ImportError, match='zeta'):
        F.zeta(numpy.ones(2), numpy.ones(2))
