"""Helpers shared by the MPI communicators: host topology and chunked object broadcast."""
import pickle

import numpy


def init_ranks(mpi_comm, MPI):
    """Return `(rank, intra_rank, intra_size, inter_rank, inter_size)`.

    Processes are grouped by host (`MPI.Get_processor_name()`); hosts are numbered in
    the order of their lowest rank.
    """
    names = mpi_comm.allgather(MPI.Get_processor_name())
    rank = mpi_comm.rank
    hosts = []
    for name in names:
        if name not in hosts:
            hosts.append(name)
    mine = names[rank]
    same_host = [r for r, n in enumerate(names) if n == mine]
    return (rank, same_host.index(rank), len(same_host), hosts.index(mine), len(hosts))


INT_MAX = 2147483647  # the largest MPI count (a C int), as ChainerMN names it


class _BadBufferLength(ValueError, AssertionError):
    # A ValueError, and an AssertionError as well: ChainerMN asserts on the bound and
    # its callers (and tests) catch AssertionError.
    pass


def chunked_bcast_obj(obj, mpi_comm, max_buf_len=256 * 1024 * 1024, root=0):
    """Broadcast a picklable object from `root` in pieces of at most `max_buf_len`
    bytes (MPI counts are 32-bit, so a single message cannot exceed 2 GiB)."""
    if not 0 < max_buf_len < INT_MAX:
        raise _BadBufferLength(
            'bcast_obj: max_buf_len must be in (0, {}), got {!r}'.format(
                INT_MAX, max_buf_len))
    if mpi_comm.rank == root:
        payload = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
        n = len(payload)
    else:
        payload = None
        n = None
    n = mpi_comm.bcast(n, root=root)
    if n <= max_buf_len:
        if mpi_comm.rank == root:
            mpi_comm.bcast(payload, root=root)
            return obj
        return pickle.loads(mpi_comm.bcast(None, root=root))
    if mpi_comm.rank == root:
        buf = numpy.frombuffer(payload, dtype=numpy.uint8)
    else:
        buf = numpy.empty(n, dtype=numpy.uint8)
    for start in range(0, n, max_buf_len):
        mpi_comm.Bcast(buf[start:start + max_buf_len], root=root)
    if mpi_comm.rank == root:
        return obj
    return pickle.loads(buf.tobytes())
