"""Summing packed gradient buffers through MPI shared memory on each host.

MPI's `Allreduce` moves every byte through the library's shared-memory queues (copied
in by the sender, out by the receiver, then reduced) and, between processes of one host,
costs several passes over the data. When the processes of a communicator share hosts,
the packed buffer of every process can instead be one row of an MPI-3 shared-memory
window (`MPI_Win_allocate_shared` on `MPI_Comm_split_type(COMM_TYPE_SHARED)`). With
`L` processes on a host, process `i` owns slice `i` of the buffer, and one sum is:

1. every process has packed its (scaled) gradients into its own row;
2. `Barrier` on the host; process `i` adds slice `i` of every other row into slice
   `i` of its own row;
3. with several hosts, slice `i` is `Allreduce`-d with process `i` of every other
   host (a communicator of one process per host), so only `1/L` of the buffer leaves
   each process;
4. process `i` copies its summed slice into slice `i` of every other row;
5. `Barrier` on the host: every row holds the full sum.

Per process that is one read of the buffer and one write of `1/L` of it for the sum,
and `(L-1)/L` of it for the copies -- no send or receive queue, no result row, no copy
back. Slice `i` of any row is touched only by process `i` between the barriers, and a
row is touched by other processes only between the barriers, so its owner may use (and
modify) it freely from the second barrier until it packs the next step's gradients.
Everything here is MPI (window, `Win.Sync`, `Barrier`, `Allreduce`).
"""
import os

import numpy

_ALIGN_BYTES = 64
# MPI libraries back shared windows with files in /dev/shm (on Linux). Writing to a page
# of a full tmpfs kills the process with SIGBUS, so a window is only made when the file
# system has room for it and a margin (containers often give /dev/shm 64 MiB only).
_SHM_DIR = '/dev/shm'
_SHM_MARGIN_BYTES = 32 * 1024 * 1024


def window_bytes(topo, sizes):
    """Bytes of the windows for packed buffers of `sizes` = [(dtype, n), ...]."""
    total = 0
    for dtype, n in sizes:
        itemsize = numpy.dtype(dtype).itemsize
        per_align = max(1, _ALIGN_BYTES // itemsize)
        total += topo.node.size * (-(-max(n, 1) // per_align) * per_align) * itemsize
    return total


def has_room(nbytes, shm_dir=_SHM_DIR):
    """Whether `shm_dir` (if it exists) can hold `nbytes` more with a margin."""
    try:
        st = os.statvfs(shm_dir)
    except (OSError, AttributeError):
        return True  # no /dev/shm: the MPI library uses something else
    return st.f_bavail * st.f_frsize >= nbytes * 1.1 + _SHM_MARGIN_BYTES


def _default_split(mpi_comm, MPI):
    return mpi_comm.Split_type(MPI.COMM_TYPE_SHARED, key=mpi_comm.rank)


class HostTopology:
    """The host communicator and the one-process-per-host communicator of `mpi_comm`.

    Built with `host_topology`; None there means the shared-memory path does not
    apply (one process per host, or hosts with different numbers of processes).
    """

    __slots__ = ('node', 'inter', 'MPI')

    def __init__(self, node, inter, MPI):
        self.node = node
        self.inter = inter
        self.MPI = MPI


def host_topology(mpi_comm, MPI, split=None):
    """Collective: a `HostTopology`, or None where the plain `Allreduce` is used.

    Args:
        mpi_comm: The communicator's `mpi4py` communicator.
        MPI: The `mpi4py.MPI` module.
        split: `split(mpi_comm, MPI)` returning the communicator of the processes that
            share memory with this one (`Split_type(COMM_TYPE_SHARED)` when None; tests
            pass a fake split to run the several-hosts path on one machine).
    """
    node = (split or _default_split)(mpi_comm, MPI)
    sizes = mpi_comm.allgather(node.size)
    if node.size < 2 or len(set(sizes)) != 1:
        node.Free()
        return None
    if node.size == mpi_comm.size:
        inter = None
    else:
        inter = mpi_comm.Split(node.rank, mpi_comm.rank)
    return HostTopology(node, inter, MPI)


class SharedSum:
    """One packed buffer per process in a host shared-memory window, summed in place.

    Args:
        topo (HostTopology): Where the processes are.
        dtype: The buffer's dtype.
        n (int): Its number of elements.
        bucket_elems (int): The largest `Allreduce` between hosts, in elements.

    Attributes:
        segment (numpy.ndarray): This process's buffer (`n` elements) in the window;
            `sum` replaces its contents by the sum over all processes.
    """

    __slots__ = ('segment', '_win', '_inter', '_barrier', '_sync', '_mine', '_others',
                 '_inter_ranges', '_MPI')

    def __init__(self, topo, dtype, n, bucket_elems):
        MPI = topo.MPI
        node = topo.node
        dtype = numpy.dtype(dtype)
        nproc = node.size
        me = node.rank
        per_align = max(1, _ALIGN_BYTES // dtype.itemsize)
        stride = -(-max(n, 1) // per_align) * per_align
        total = nproc * stride
        win = MPI.Win.Allocate_shared(
            total * dtype.itemsize if me == 0 else 0, dtype.itemsize, comm=node)
        buf, _ = win.Shared_query(0)
        rows = numpy.frombuffer(buf, dtype=dtype, count=total).reshape(nproc, stride)
        win.Lock_all(MPI.MODE_NOCHECK)
        rows[me].fill(0)  # commit this process's pages now, not in the middle of a step
        lo = n * me // nproc
        hi = n * (me + 1) // nproc
        self._MPI = MPI
        self._win = win
        self._inter = topo.inter
        self._barrier = node.Barrier
        self._sync = win.Sync
        self.segment = rows[me, :n]
        self._mine = rows[me, lo:hi]
        self._others = [rows[j, lo:hi] for j in range(nproc) if j != me]
        step = max(1, bucket_elems)
        self._inter_ranges = [(a, min(a + step, hi - lo)) for a in range(0, hi - lo, step)]

    def _fence(self):
        self._sync()
        self._barrier()
        self._sync()

    def sum(self):
        """Collective over all processes: every `segment` becomes the sum of all."""
        mine = self._mine
        others = self._others
        add = numpy.add
        self._fence()
        for other in others:
            add(mine, other, out=mine)
        inter = self._inter
        if inter is not None:
            Allreduce = inter.Allreduce
            IN_PLACE = self._MPI.IN_PLACE
            for a, b in self._inter_ranges:
                Allreduce(IN_PLACE, mine[a:b])
        for other in others:
            numpy.copyto(other, mine)
        self._fence()

    def free(self):
        """Collective on the host: release the window (`segment` becomes invalid)."""
        win = self._win
        if win is None:
            return
        self._win = None
        MPI = self._MPI
        if MPI.Is_finalized():
            return
        win.Unlock_all()
        win.Free()
