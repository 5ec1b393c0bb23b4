"""The interface every communicator implements (`chainermn.CommunicatorBase`)."""
import warnings


class CommunicatorBase:
    """Abstract communicator: ranks, array and object collectives, model helpers.

    Concrete communicators (`MpiCommunicatorBase` and its subclasses) implement every method below.
    """

    def __init__(self):
        self._config = {}

    @property
    def rank(self):
        """Rank of this process in the communicator."""
        raise NotImplementedError

    @property
    def size(self):
        """Number of processes in the communicator."""
        raise NotImplementedError

    @property
    def intra_rank(self):
        """Rank of this process among the processes of its host."""
        raise NotImplementedError

    @property
    def intra_size(self):
        """Number of processes on this host."""
        raise NotImplementedError

    @property
    def inter_rank(self):
        """Index of this host among the hosts of the communicator."""
        raise NotImplementedError

    @property
    def inter_size(self):
        """Number of hosts in the communicator."""
        raise NotImplementedError

    def set_config(self, name, value=True, **kwargs):
        """Set a communicator option (`batched_copy` is accepted and ignored)."""
        if name != 'batched_copy':
            raise ValueError('{}.set_config: unknown option {!r}'.format(
                type(self).__name__, name))
        self._config[name] = value

    def get_config(self, name=None):
        """Return the option `name` (all options as a dict when None)."""
        if name is None:
            return dict(self._config)
        return self._config.get(name)

    def split(self, color, key):
        raise NotImplementedError

    def alltoall(self, xs):
        raise NotImplementedError

    def send(self, data, dest, tag):
        raise NotImplementedError

    def recv(self, source, tag):
        raise NotImplementedError

    def bcast(self, data, max_buf_len=None, root=0):
        raise NotImplementedError

    def gather(self, data, root=0):
        raise NotImplementedError

    def allgather(self, x):
        raise NotImplementedError

    def allreduce(self, data):
        raise NotImplementedError

    def scatter(self, xs, root=0):
        raise NotImplementedError

    def send_obj(self, obj, dest, tag=0):
        raise NotImplementedError

    def recv_obj(self, source, status=None, tag=None):
        raise NotImplementedError

    def bcast_obj(self, obj, max_buf_len=None, root=0):
        raise NotImplementedError

    def gather_obj(self, obj, root=0):
        raise NotImplementedError

    def allreduce_obj(self, obj):
        raise NotImplementedError

    def bcast_data(self, model):
        raise NotImplementedError

    def multi_node_mean_grad(self, model, zero_fill=False):
        raise NotImplementedError

    def broadcast_data(self, model):
        """Old name of `bcast_data`."""
        self.bcast_data(model)

    def allreduce_grad(self, model, zero_fill=False):
        """Deprecated (ChainerMN 7) alias of `multi_node_mean_grad`."""
        warnings.warn('allreduce_grad() is deprecated.', DeprecationWarning)
        self.multi_node_mean_grad(model, zero_fill)

    def finalize(self):
        """Release the resources held by the communicator."""
        pass
