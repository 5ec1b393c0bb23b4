"""Differentiable point-to-point communication (`chainermn.functions.send/recv`)."""
import numpy

from minichainer import backend
from minichainer import function_node
from minichainer import variable


def _dummy(like=None):
    # A 0-d delegate (ChainerMN used shape (0,)): backward() can start from it. On the
    # device of `like` when given (a GPU input gives a GPU delegate).
    xp = numpy if like is None else backend.get_array_module(like)
    return xp.zeros((), dtype=numpy.float32)


class Send(function_node.FunctionNode):
    """Send the inputs to `peer`; the output is an empty delegate whose backward
    receives the inputs' gradients from `peer`."""

    def __init__(self, comm, peer, peer_tag):
        self.comm = comm
        self.peer = peer
        self.peer_tag = peer_tag

    def forward(self, inputs):
        self._n = len(inputs)
        self.comm.send(inputs[0] if len(inputs) == 1 else tuple(inputs),
                       self.peer, self.peer_tag)
        return _dummy(inputs[0]),

    def backward(self, target_input_indexes, grad_outputs):
        gxs = self.comm.recv(self.peer, self.peer_tag)
        if not isinstance(gxs, tuple):
            gxs = (gxs,)
        return tuple(variable.Variable(g) for g in gxs)


class Recv(function_node.FunctionNode):
    """Receive arrays from `peer`; backward sends their gradients back."""

    def __init__(self, comm, peer, peer_tag):
        self.comm = comm
        self.peer = peer
        self.peer_tag = peer_tag

    def forward(self, inputs):
        data = self.comm.recv(self.peer, self.peer_tag)
        if not isinstance(data, tuple):
            data = (data,)
        self._like = [numpy.empty_like(d) for d in data]
        self._delegate_like = numpy.empty_like(inputs[0])
        return data

    def backward(self, target_input_indexes, grad_outputs):
        gys = [numpy.zeros_like(a) if g is None else g.array
               for g, a in zip(grad_outputs, self._like)]
        self.comm.send(gys[0] if len(gys) == 1 else tuple(gys), self.peer, self.peer_tag)
        return variable.Variable(numpy.zeros_like(self._delegate_like)),


def send(x, communicator, rank, tag=0):
    """Send `x` (a Variable or a tuple/list of them) to process `rank`.

    Returns:
        Variable: An empty delegate variable; calling its `backward()` receives the
        gradients of `x` from `rank` (which called `recv` then backward).

    Raises:
        ValueError: `rank` is this process.
    """
    if rank == communicator.rank:
        raise ValueError('send: rank must be another process than this one ({}), got '
                         '{}'.format(communicator.rank, rank))
    xs = tuple(x) if isinstance(x, (list, tuple)) else (x,)
    return Send(communicator, rank, tag).apply(xs)[0]


def recv(communicator, rank, delegate_variable=None, tag=0, force_tuple=False):
    """Receive what process `rank` sent with `send`.

    Args:
        communicator: The communicator.
        rank (int): The sender.
        delegate_variable (Variable): A delegate from an earlier `send` on this
            process, so that one backward pass covers both.
        tag (int): Message tag.
        force_tuple (bool): Return a tuple even for a single variable.

    Returns:
        Variable or tuple of Variables.
    """
    if rank == communicator.rank:
        raise ValueError('recv: rank must be another process than this one ({}), got '
                         '{}'.format(communicator.rank, rank))
    if delegate_variable is None:
        delegate_variable = variable.Variable(_dummy())
        delegate_variable.name = 'delegate_variable'
    ys = Recv(communicator, rank, tag).apply((delegate_variable,))
    if len(ys) == 1 and not force_tuple:
        return ys[0]
    return ys
