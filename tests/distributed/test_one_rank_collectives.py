"""With one rank, ChainerMN's differentiable collectives return the Variable itself.

ChainerMN builds `allgather`, `alltoall` and `gather` on the old-style
`chainer.Function`, whose `__call__` unwraps a one-output tuple; programs rely on it
(Chainer's `examples/chainermn/parallel_convolution` concatenates what `allgather`
returns, which fails under ChainerMN with one rank and works with a tuple).
"""
import numpy
import pytest

import minichainer
from minichainer import distributed as mn


class _OneRank:
    rank = 0
    size = 1

    def allgather(self, x):
        return (x.copy(),)

    def alltoall(self, xs):
        return tuple(x.copy() for x in xs)

    def gather(self, x, root=0):
        return (x.copy(),)

    def scatter(self, xs, root=0):
        return xs[0].copy()

    def allreduce(self, x):
        return x.copy()


def _x():
    return minichainer.Variable(numpy.arange(6, dtype=numpy.float32).reshape(2, 3))


def test_allgather_alltoall_gather_return_a_variable_with_one_rank():
    comm = _OneRank()
    for y in (mn.functions.allgather(comm, _x()), mn.functions.alltoall(comm, [_x()]),
              mn.functions.gather(comm, _x())):
        assert isinstance(y, minichainer.Variable)
        numpy.testing.assert_array_equal(y.array, _x().array)


def test_one_rank_allgather_backpropagates():
    x = _x()
    y = mn.functions.allgather(_OneRank(), x)
    minichainer.functions.sum(y * y).backward()
    numpy.testing.assert_array_equal(x.grad, 2 * x.array)


def test_several_ranks_still_give_a_tuple():
    class _TwoRanks(_OneRank):
        size = 2

        def allgather(self, x):
            return (x.copy(), x.copy() + 1)

    ys = mn.functions.allgather(_TwoRanks(), _x())
    assert isinstance(ys, tuple) and len(ys) == 2
    numpy.testing.assert_array_equal(ys[1].array, _x().array + 1)


def test_concat_of_what_one_rank_allgather_returns_raises_as_chainer():
    # Chainer's parallel_convolution example does F.concat(allgather(comm, y), axis=1):
    # with one rank that is F.concat(Variable), which Chainer rejects (TypeError); it
    # must not concatenate the Variable's rows.
    y = mn.functions.allgather(_OneRank(), _x())
    with pytest.raises(TypeError, match='sequence'):
        minichainer.functions.concat(y, axis=1)
    with pytest.raises(TypeError, match='sequence'):
        minichainer.functions.concat(_x().array, axis=1)


def test_one_rank_multi_node_batch_normalization_of_mixed16_equals_batch_normalization():
    # float16 x with float32 gamma/beta (`chainer.mixed16`): statistics, x_hat and the
    # gradients are computed in float32, as Chainer's batch normalization computes them;
    # rounding x_hat to float16 put gamma's gradient 5% off
    rng = numpy.random.RandomState(71)
    x = rng.random_sample((8, 3)).astype(numpy.float16)
    gamma = rng.uniform(0.5, 1.5, 3).astype(numpy.float32)
    beta = rng.uniform(-1, 1, 3).astype(numpy.float32)
    gy = rng.uniform(-1, 1, (8, 3)).astype(numpy.float16)
    outs = []
    for f in (lambda x, g, b: minichainer.functions.batch_normalization(x, g, b),
              lambda x, g, b: mn.functions.multi_node_batch_normalization(
                  x, g, b, _OneRank())):
        xv, gv, bv = (minichainer.Variable(a.copy()) for a in (x, gamma, beta))
        y = f(xv, gv, bv)
        y.grad = gy
        y.backward()
        outs.append((y.array, xv.grad, gv.grad, bv.grad))
    (y0, gx0, gg0, gb0), (y1, gx1, gg1, gb1) = outs
    assert y1.dtype == gx1.dtype == numpy.float16
    assert gg1.dtype == gb1.dtype == numpy.float32
    numpy.testing.assert_allclose(y1, y0, rtol=1e-3, atol=1e-3)
    numpy.testing.assert_allclose(gx1, gx0, rtol=1e-2, atol=1e-2)
    numpy.testing.assert_allclose(gg1, gg0, rtol=1e-5, atol=1e-6)
    numpy.testing.assert_allclose(gb1, gb0, rtol=1e-6, atol=1e-6)
