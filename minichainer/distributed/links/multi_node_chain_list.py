"""Model-parallel chains spread over processes (`MultiNodeChainList`)."""
import collections

from minichainer import link as link_module
from minichainer.distributed.functions import point_to_point_communication as p2p
from minichainer.distributed.functions import pseudo_connect as pc


def _connect(delegate, x):
    """`x` attached behind `delegate` in the graph (`x` itself without one)."""
    if delegate is None:
        return x
    if isinstance(x, tuple):
        return pc.pseudo_connect(delegate, *x)
    return pc.pseudo_connect(delegate, x)[0]


class MultiNodeChainList(link_module.ChainList):
    """A chain list whose components exchange their inputs and outputs with other
    processes, for model parallelism.

    Components run in the order they were added. A component with `rank_in` receives
    its inputs from those ranks (`recv`), else
    it takes the call's inputs; with `rank_out` it sends its outputs there
    (`send`), else they are the model output
    (at most one such component). Delegate variables chain the components so that one
    `backward()` from the returned variable runs every component's backward in reverse
    order, exchanging gradients with the peers.

    Args:
        comm: The communicator.
    """

    def __init__(self, comm):
        super().__init__()
        self._comm = comm
        self._rank_inouts = []

    def add_link(self, link, rank_in=None, rank_out=None):
        """Append `link` receiving from `rank_in` and sending to `rank_out` (an
        int, a list of ints or None).

        Raises:
            ValueError: a second component with `rank_out=None`.
        """
        if isinstance(rank_in, int):
            rank_in = [rank_in]
        if isinstance(rank_out, int):
            rank_out = [rank_out]
        if rank_out is None and any(out is None for _, out in self._rank_inouts):
            raise ValueError('MultiNodeChainList cannot have more than one component '
                             'whose rank_out is None')
        super().add_link(link)
        self._rank_inouts.append((rank_in, rank_out))

    def forward(self, *inputs):
        comm = self._comm
        queue = collections.deque()
        y = None
        delegate = None
        for i_comp, (f, (rank_in, rank_out)) in enumerate(zip(self, self._rank_inouts)):
            if rank_in is None:
                if i_comp == 0 or delegate is None:
                    x = f(*inputs)
                else:
                    x = f(*_connect_all(delegate, inputs))
            else:
                xs = []
                for r in rank_in:
                    if r == comm.rank:
                        item = queue.popleft()
                        xi = _connect(delegate, item)
                    else:
                        xi = p2p.recv(comm, rank=r, delegate_variable=delegate)
                    xs.append(xi)
                    delegate = xi[0] if isinstance(xi, tuple) else xi
                delegate = None
                x = f(*xs)
            if rank_out is None:
                y = x
                delegate = y[0] if isinstance(y, tuple) else y
            else:
                for j, r in enumerate(rank_out):
                    if r == comm.rank:
                        x = _connect(delegate, x)
                        queue.append(x)
                        delegate = x[0] if isinstance(x, tuple) else x
                    else:
                        if j > 0:
                            x = _connect(delegate, x)
                        delegate = p2p.send(x, comm, rank=r)
        if queue:
            raise ValueError('MultiNodeChainList: the communication queue is not empty at '
                             'the end of forward; check that rank_in and rank_out match')
        if y is None:
            return delegate
        head = y[0] if isinstance(y, tuple) else y
        if head is delegate:
            return y
        return _connect(delegate, y)


def _connect_all(delegate, inputs):
    return pc.pseudo_connect(delegate, *inputs)
