"""Differentiable collective communication (`chainermn.functions`): allgather,
alltoall, bcast, gather, scatter.

Every rank must call the same functions in the same order, forward and backward.
"""
import numpy

from minichainer import backend
from minichainer import function_node
from minichainer import variable


def _dummy(like=None):
    # A 0-d delegate (ChainerMN used shape (0,)): backward() can start from it. On the
    # device of `like` when given (a GPU input gives a GPU delegate).
    xp = numpy if like is None else backend.get_array_module(like)
    return xp.zeros((), dtype=numpy.float32)


def _zeros_if_none(grads, arrays):
    return [numpy.zeros_like(a) if g is None else g.array for g, a in zip(grads, arrays)]


class AllGather(function_node.FunctionNode):
    """Every rank gets every rank's `x`; the gradient of `x` is the sum over the
    ranks of the gradients of its copies."""

    def __init__(self, comm):
        self.comm = comm

    def forward(self, inputs):
        x, = inputs
        ys = self.comm.allgather(x)
        self._ys_like = [numpy.empty_like(y) for y in ys]
        return ys

    def backward(self, target_input_indexes, grad_outputs):
        gys = _zeros_if_none(grad_outputs, self._ys_like)
        gxs = self.comm.alltoall(gys)
        gx = gxs[0].copy()
        for g in gxs[1:]:
            gx += g
        return variable.Variable(gx),


class AllToAll(function_node.FunctionNode):
    """Rank `i` sends `xs[j]` to rank `j`; gradients travel back the same way."""

    def __init__(self, comm):
        self.comm = comm

    def forward(self, inputs):
        if len(inputs) != self.comm.size:
            raise ValueError('alltoall: xs must have {} (the communicator size) '
                             'variables, got {}'.format(self.comm.size, len(inputs)))
        ys = self.comm.alltoall(inputs)
        self._ys_like = [numpy.empty_like(y) for y in ys]
        return ys

    def backward(self, target_input_indexes, grad_outputs):
        gys = _zeros_if_none(grad_outputs, self._ys_like)
        gxs = self.comm.alltoall(gys)
        return tuple(variable.Variable(g) for g in gxs)


class Bcast(function_node.FunctionNode):
    """`root`'s `x` on every rank; its gradient is the sum of all ranks'."""

    def __init__(self, comm, root):
        self.comm = comm
        self.root = root

    def forward(self, inputs):
        x, = inputs
        y = self.comm.bcast(x if self.comm.rank == self.root else None, self.root)
        self._y_like = numpy.empty_like(y)
        return y,

    def backward(self, target_input_indexes, grad_outputs):
        gy, = _zeros_if_none(grad_outputs, [self._y_like])
        gys = self.comm.gather(gy, self.root)
        if self.comm.rank != self.root:
            return variable.Variable(_dummy()),
        gx = gys[0].copy()
        for g in gys[1:]:
            gx += g
        return variable.Variable(gx),


class Gather(function_node.FunctionNode):
    """Every rank's `x` at `root` (others get an empty delegate array)."""

    def __init__(self, comm, root):
        self.comm = comm
        self.root = root

    def forward(self, inputs):
        x, = inputs
        self._x_like = numpy.empty_like(x)
        ys = self.comm.gather(x, self.root)
        if self.comm.rank == self.root:
            self._ys_like = [numpy.empty_like(y) for y in ys]
            return ys
        return _dummy(x),

    def backward(self, target_input_indexes, grad_outputs):
        if self.comm.rank == self.root:
            gys = _zeros_if_none(grad_outputs, self._ys_like)
            gx = self.comm.scatter(tuple(gys), self.root)
        else:
            gx = self.comm.scatter(None, self.root)
        return variable.Variable(gx),


class Scatter(function_node.FunctionNode):
    """`xs[i]` of `root` on rank `i`; gradients are gathered back to `root`."""

    def __init__(self, comm, root):
        self.comm = comm
        self.root = root

    def forward(self, inputs):
        if self.comm.rank == self.root:
            y = self.comm.scatter(tuple(inputs), self.root)
        else:
            y = self.comm.scatter(None, self.root)
        self._y_like = numpy.empty_like(y)
        return y,

    def backward(self, target_input_indexes, grad_outputs):
        gy, = _zeros_if_none(grad_outputs, [self._y_like])
        gxs = self.comm.gather(gy, self.root)
        if self.comm.rank == self.root:
            return tuple(variable.Variable(g) for g in gxs)
        return variable.Variable(_dummy()),


def _function_call_result(outputs):
    # ChainerMN builds these on the old-style ``chainer.Function``, whose ``__call__``
    # returns the Variable itself when there is one output: with one rank, allgather,
    # alltoall and gather give a Variable, not a 1-tuple.
    return outputs[0] if len(outputs) == 1 else outputs


def allgather(comm, x):
    """Gather `x` of every rank on every rank (differentiable).

    Returns:
        tuple of Variable: `comm.size` variables, one per rank (with one rank, as in
        ChainerMN, the Variable itself).
    """
    return _function_call_result(AllGather(comm).apply((x,)))


def alltoall(comm, xs):
    """Send `xs[i]` to rank `i`, receive one variable from every rank
    (differentiable; with one rank, as in ChainerMN, the Variable itself)."""
    return _function_call_result(AllToAll(comm).apply(tuple(xs)))


def bcast(comm, x, root=0):
    """Broadcast `root`'s `x` (`x` is ignored, may be None, on other ranks)."""
    if comm.rank != root:
        x = variable.Variable(_dummy())
    return Bcast(comm, root).apply((x,))[0]


def gather(comm, x, root=0):
    """Gather every rank's `x` at `root`: a tuple there (with one rank, as in
    ChainerMN, the Variable itself), an empty delegate variable (to call `backward`
    on) elsewhere."""
    return _function_call_result(Gather(comm, root).apply((x,)))


def scatter(comm, xs, root=0):
    """Send `xs[i]` of `root` to rank `i` (`xs` ignored on other ranks)."""
    if comm.rank == root:
        return Scatter(comm, root).apply(tuple(xs))[0]
    return Scatter(comm, root).apply((variable.Variable(_dummy()),))[0]
