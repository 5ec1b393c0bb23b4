"""Split a dataset across the ranks (`scatter_dataset`, `scatter_index`)."""
import numpy

from minichainer.datasets.sub_dataset import SubDataset
from minichainer.distributed.communicators import _communication_utility


class DataSizeError(RuntimeError, ValueError):
    """An invalid number of samples to scatter (also a `ValueError`)."""


class _Mpi4pyComm:
    """The few communicator methods used here, on a raw mpi4py communicator."""

    def __init__(self, mpi_comm):
        self.mpi_comm = mpi_comm
        self.rank = mpi_comm.rank
        self.size = mpi_comm.size

    def bcast_obj(self, obj, max_buf_len=256 * 1024 * 1024, root=0):
        return _communication_utility.chunked_bcast_obj(obj, self.mpi_comm, max_buf_len,
                                                        root)

    def send_obj(self, obj, dest, tag=0):
        self.mpi_comm.send(obj, dest=dest, tag=tag)

    def recv_obj(self, source, tag=0):
        return self.mpi_comm.recv(source=source, tag=tag)


def _as_comm(comm):
    return comm if hasattr(comm, 'bcast_obj') else _Mpi4pyComm(comm)


def _check_root(caller, root, comm):
    if not isinstance(root, (int, numpy.integer)) or not 0 <= root < comm.size:
        raise ValueError('{}: root must be a rank in [0, {}), got {!r}'.format(
            caller, comm.size, root))


def _index_ranges(n_total_samples, size, force_equal_length):
    """Yield `(rank, begin, end)`; equal lengths (possibly overlapping by a few
    examples) or disjoint ranges whose lengths differ by at most one."""
    if force_equal_length:
        n_sub = (n_total_samples + size - 1) // size
        for i in range(size):
            b = n_total_samples * i // size
            yield i, b, b + n_sub
    else:
        b = 0
        for i in range(size):
            n = n_total_samples // size + (1 if i < n_total_samples % size else 0)
            yield i, b, b + n
            b += n


def scatter_index(n_total_samples, comm, root=0, *, force_equal_length=True):
    """Return this rank's `(begin, end)` part of `range(n_total_samples)`.

    Rank `root` decides and sends every rank its range.

    Args:
        n_total_samples (int): Number of indices to split.
        comm: A communicator.
        root (int): The deciding rank.
        force_equal_length (bool): If True, every rank gets `ceil(n / size)` indices
            (neighbouring ranges overlap when `size` does not divide `n`), as the
            multi-node updaters and evaluators expect; if False, the ranges are disjoint
            and their lengths differ by at most one.

    With fewer samples than ranks (even none), every rank still gets a range, as in
    ChainerMN: `ceil(n / size)` indices each with `force_equal_length` (so ranks
    share indices), else some ranks get an empty range.

    Raises:
        DataSizeError: `n_total_samples` is not a non-negative int.
    """
    comm = _as_comm(comm)
    _check_root('scatter_index', root, comm)
    if isinstance(n_total_samples, bool) or \
            not isinstance(n_total_samples, (int, numpy.integer)) or n_total_samples < 0:
        raise DataSizeError(
            'scatter_index: n_total_samples must be a non-negative int, got {!r}'.format(
                n_total_samples))
    if comm.rank == root:
        mine = None
        for i, b, e in _index_ranges(n_total_samples, comm.size, force_equal_length):
            if i == root:
                mine = (b, e)
            else:
                comm.send_obj((b, e), dest=i)
        return mine
    return comm.recv_obj(source=root)


def scatter_dataset(dataset, comm, root=0, shuffle=False, seed=None,
                    max_buf_len=256 * 1024 * 1024, *, force_equal_length=True):
    """Give every rank its part of `root`'s dataset.

    The dataset of `root` (others may pass None) is broadcast, optionally permuted
    with `numpy.random.RandomState(seed)` (the global generator is not used), and each
    rank gets a [`SubDataset`][minichainer.datasets.sub_dataset.SubDataset] of it (see
    `scatter_index` for the split).

    Args:
        dataset: The dataset (any sequence), meaningful on `root`.
        comm: A communicator (or a raw mpi4py communicator).
        root (int): The rank whose dataset is scattered.
        shuffle (bool): Permute the examples before splitting.
        seed (int): Seed of the permutation (random when None).
        max_buf_len (int): Largest single broadcast message, in bytes.
        force_equal_length (bool): See `scatter_index`.

    Returns:
        SubDataset: This rank's part.

    Raises:
        ValueError: `root` is not a rank, or the root's dataset is None.
    """
    comm = _as_comm(comm)
    _check_root('scatter_dataset', root, comm)
    order = None
    if comm.rank == root:
        if dataset is None:
            raise ValueError('scatter_dataset: dataset must be given on the root rank '
                             '{}, got None'.format(root))
        if shuffle:
            order = numpy.random.RandomState(seed).permutation(len(dataset))
        data = (dataset, order)
    else:
        data = None
    dataset, order = comm.bcast_obj(data, max_buf_len=max_buf_len, root=root)
    b, e = scatter_index(len(dataset), comm, root, force_equal_length=force_equal_length)
    return SubDataset(dataset, b, e, order)


def _scatter_index(n_total_samples, size, force_equal_length):
    """`(rank, begin, end)` of every rank (ChainerMN's private helper, which
    ChainerMN's tests call as `chainermn.datasets.scatter._scatter_index`)."""
    return _index_ranges(n_total_samples, size, force_equal_length)
