"""MPI communicator on host (NumPy) arrays, built on mpi4py (`MpiCommunicatorBase`).

GPU (CuPy) arrays are accepted everywhere: they travel through host memory (one copy each
way), or, for the gradients and parameters of a model, directly from device memory when
the MPI library is CUDA-aware (`mpi_is_cuda_aware`).
"""
import os
import subprocess

import numpy

from minichainer import backend
from minichainer.distributed import _mpi
from minichainer.distributed import global_except_hook
from minichainer.distributed.communicators import _communication_utility
from minichainer.distributed.communicators import _node_shared
from minichainer.distributed.communicators import _packed_buffer
from minichainer.distributed.communicators import communicator_base

_DEFAULT_BUCKET_BYTES = 64 * 1024 * 1024
_MAX_CACHED_LAYOUTS = 8  # e.g. the generator and discriminator of a GAN
_FLOAT16 = numpy.dtype(numpy.float16)
_UNKNOWN = object()


def _check_array(caller, x, argname='x'):
    if not isinstance(x, numpy.ndarray) and not isinstance(x, backend.get_array_types()):
        raise TypeError(
            '{}: {} must be a numpy.ndarray or a cupy.ndarray, got {}'.format(
                caller, argname, type(x).__name__))
    return _packed_buffer.comm_dtype(x.dtype, caller)


def _meta(caller, x):
    _check_array(caller, x)
    return (tuple(x.shape), x.dtype.str)


def _to_wire(x):
    """A contiguous host array in its communication dtype (a GPU array is staged through
    the host: one device-to-host copy)."""
    if not isinstance(x, numpy.ndarray):
        x = backend.CpuDevice().send(x)
    if x.dtype == _FLOAT16:
        return numpy.ascontiguousarray(x, dtype=numpy.float32)
    return numpy.ascontiguousarray(x)


def _device_of(x):
    """The device of the array `x` when it is on a GPU, else None."""
    if x is None or isinstance(x, numpy.ndarray):
        return None
    device = backend.get_device_from_array(x)
    return None if device.xp is numpy else device


def _back_to(device, out):
    """`out` (a host array or a tuple of them) sent to `device` (None: left on the host)."""
    if device is None or out is None:
        return out
    return device.send(out)


def _first_device(xs):
    for x in xs:
        device = _device_of(x)
        if device is not None:
            return device
    return None


def _current_gpu():
    """The current CUDA device as a minichainer device (where received GPU arrays go)."""
    from minichainer.backends import cuda
    return backend.get_device('@cupy:{}'.format(cuda.cupy.cuda.Device().id))


def mpi_is_cuda_aware(MPI):
    """Whether the MPI library says it reads GPU memory (CUDA-aware).

    `MINICHAINER_MPI_CUDA_AWARE=1`/`0` decides when set. Otherwise Open MPI is asked
    through `ompi_info` (`mpi_built_with_cuda_support`), and MPICH's build line is read
    for `--with-cuda` (and `MPIR_CVAR_ENABLE_GPU` must not be 0). Anything else: False,
    and GPU arrays are staged through host memory.
    """
    forced = os.environ.get('MINICHAINER_MPI_CUDA_AWARE')
    if forced is not None:
        return forced.strip().lower() in ('1', 'true', 'yes')
    try:
        version = MPI.Get_library_version()
    except Exception:
        return False
    if 'Open MPI' in version:
        try:
            out = subprocess.run(['ompi_info', '--parsable', '--all'], capture_output=True,
                                 text=True, timeout=30).stdout
        except (OSError, subprocess.SubprocessError):
            return False
        return 'mpi_built_with_cuda_support:value:true' in out
    if 'MPICH' in version:
        return '--with-cuda' in version and \
            os.environ.get('MPIR_CVAR_ENABLE_GPU', '1') != '0'
    return False


def _wire_dtype(dtype_str):
    dt = numpy.dtype(dtype_str)
    return numpy.dtype(numpy.float32) if dt == _FLOAT16 else dt


def _from_wire(buf, dtype_str, shape):
    dt = numpy.dtype(dtype_str)
    out = buf.reshape(shape)
    if out.dtype != dt:
        out = out.astype(dt)
    return out


def _displacements(counts):
    disp = [0] * len(counts)
    for i in range(1, len(counts)):
        disp[i] = disp[i - 1] + counts[i - 1]
    return disp


def _same_dtype(caller, metas):
    dtypes = {m[1] for m in metas}
    if len(dtypes) > 1:
        raise TypeError('{}: all arrays must have the same dtype, got {}'.format(
            caller, ', '.join(sorted(str(numpy.dtype(d)) for d in dtypes))))


def _sorted_params(model):
    return sorted(model.namedparams(), key=lambda item: item[0])


class MpiCommunicatorBase(communicator_base.CommunicatorBase):
    """A communicator over an mpi4py communicator, for NumPy arrays.

    Gradients are averaged through one reusable flat buffer per dtype, cut into buckets of
    at most `bucket_bytes` bytes with one `Allreduce` per bucket (see
    `multi_node_mean_grad`). Objects travel pickled (`*_obj` methods); arrays
    travel as raw buffers (`send`/`recv`/`bcast`/`gather`/`allgather`/
    `allreduce`/`scatter`/`alltoall`), float16 as float32.

    Args:
        mpi_comm: An `mpi4py.MPI.Comm` (`MPI.COMM_WORLD` when None).
        bucket_bytes (int): Upper bound of the bytes of one gradient `Allreduce`.
        shared_memory (bool): Sum gradients through an MPI shared-memory window when
            several processes share a host (see `multi_node_mean_grad`); False
            always uses `Allreduce` on private buffers.
    """

    # How the processes sharing memory are found (tests replace it to fake hosts).
    _split_host = None

    def __init__(self, mpi_comm=None, bucket_bytes=_DEFAULT_BUCKET_BYTES,
                 shared_memory=True):
        super().__init__()
        MPI = _mpi.get_mpi()
        if mpi_comm is None:
            mpi_comm = MPI.COMM_WORLD
        if not isinstance(bucket_bytes, int) or bucket_bytes <= 0:
            raise ValueError(
                '{}: bucket_bytes must be a positive int, got {!r}'.format(
                    type(self).__name__, bucket_bytes))
        self._MPI = MPI
        self.mpi_comm = mpi_comm
        self.bucket_bytes = bucket_bytes
        self.shared_memory = bool(shared_memory)
        self._topology = _UNKNOWN
        (_, self._intra_rank, self._intra_size, self._inter_rank,
         self._inter_size) = _communication_utility.init_ranks(mpi_comm, MPI)
        self._grad_layouts = {}
        self._grad_layout = None
        self._cuda_aware = None
        global_except_hook.add_hook_if_enabled()

    @property
    def cuda_aware(self):
        """Whether GPU arrays are handed to MPI in device memory (see
        `mpi_is_cuda_aware`; asked once, when a model on a GPU is first communicated)."""
        if self._cuda_aware is None:
            self._cuda_aware = mpi_is_cuda_aware(self._MPI)
        return self._cuda_aware

    # ------------------------------------------------------------------ topology
    @property
    def rank(self):
        return self.mpi_comm.rank

    @property
    def size(self):
        return self.mpi_comm.size

    @property
    def intra_rank(self):
        return self._intra_rank

    @property
    def intra_size(self):
        return self._intra_size

    @property
    def inter_rank(self):
        return self._inter_rank

    @property
    def inter_size(self):
        return self._inter_size

    def __repr__(self):
        return '{}(rank={}, size={})'.format(type(self).__name__, self.rank, self.size)

    def split(self, color, key):
        """Split into sub-communicators of the same class (`MPI_Comm_split`)."""
        return type(self)(mpi_comm=self.mpi_comm.Split(color, key),
                          bucket_bytes=self.bucket_bytes,
                          shared_memory=self.shared_memory)

    def finalize(self):
        """Drop the cached buffers and free a communicator created by `split`.

        Collective. Gradients that are views of a shared-memory buffer get their own copy
        first, so the model stays usable.
        """
        for layout in self._grad_layouts.values():
            layout.release()
        self._grad_layouts = {}
        self._grad_layout = None
        MPI = self._MPI
        topo = self._topology
        self._topology = _UNKNOWN
        if topo is not _UNKNOWN and topo is not None and not MPI.Is_finalized():
            for sub in (topo.node, topo.inter):
                if sub is not None:
                    sub.Free()
        comm = self.mpi_comm
        if (comm is not MPI.COMM_WORLD and comm != MPI.COMM_WORLD
                and comm != MPI.COMM_SELF and not MPI.Is_finalized()):
            try:
                comm.Free()
            except MPI.Exception:
                pass

    # ------------------------------------------------------------------ objects
    def send_obj(self, obj, dest, tag=0):
        """Send a picklable object to rank `dest`."""
        self.mpi_comm.send(obj, dest=dest, tag=tag)

    def recv_obj(self, source, status=None, tag=None):
        """Receive an object sent by `send_obj` from rank `source`."""
        if tag is None:
            tag = self._MPI.ANY_TAG
        return self.mpi_comm.recv(source=source, status=status, tag=tag)

    def bcast_obj(self, obj, max_buf_len=256 * 1024 * 1024, root=0):
        """Broadcast `obj` from `root` (in pieces of `max_buf_len` bytes)."""
        return _communication_utility.chunked_bcast_obj(
            obj, self.mpi_comm, max_buf_len=max_buf_len, root=root)

    def gather_obj(self, obj, root=0):
        """Gather one object per rank: a list at `root`, None elsewhere."""
        return self.mpi_comm.gather(obj, root=root)

    def allreduce_obj(self, obj):
        """Sum of `obj` over the ranks (anything with `+`), on every rank."""
        return self.mpi_comm.allreduce(obj)

    # ------------------------------------------------------------------ arrays
    def send(self, data, dest, tag):
        """Send an array or a tuple/list of arrays to rank `dest`."""
        is_tuple = isinstance(data, (tuple, list))
        arrays = list(data) if is_tuple else [data]
        metas = [_meta('send', x) for x in arrays]
        on_gpu = _first_device(arrays) is not None
        self.mpi_comm.send((is_tuple, metas, on_gpu), dest=dest, tag=tag)
        for x in arrays:
            self.mpi_comm.Send(_to_wire(x), dest=dest, tag=tag)

    def recv(self, source, tag):
        """Receive what `send` sent: an array, or a tuple for a tuple/list. Arrays
        sent from a GPU arrive on this process's current GPU, as in ChainerMN."""
        is_tuple, metas, on_gpu = self.mpi_comm.recv(source=source, tag=tag)
        out = []
        for shape, dt in metas:
            buf = numpy.empty(shape, dtype=_wire_dtype(dt))
            self.mpi_comm.Recv(buf, source=source, tag=tag)
            out.append(_from_wire(buf, dt, shape))
        device = _current_gpu() if on_gpu else None
        return _back_to(device, tuple(out) if is_tuple else out[0])

    def bcast(self, x, root=0):
        """Broadcast the array `x` of `root`; returns it on every rank."""
        if self.rank == root:
            self.mpi_comm.bcast(_meta('bcast', x) + (_device_of(x) is not None,),
                                root=root)
            self.mpi_comm.Bcast(_to_wire(x), root=root)
            return x
        shape, dt, on_gpu = self.mpi_comm.bcast(None, root=root)
        buf = numpy.empty(shape, dtype=_wire_dtype(dt))
        self.mpi_comm.Bcast(buf, root=root)
        return _back_to(_current_gpu() if on_gpu else None, _from_wire(buf, dt, shape))

    def gather(self, x, root=0):
        """Gather one array per rank: a tuple at `root`, None elsewhere."""
        metas = self.mpi_comm.allgather(_meta('gather', x))
        _same_dtype('gather', metas)
        sbuf = _to_wire(x)
        if self.rank != root:
            self.mpi_comm.Gatherv(sbuf, None, root=root)
            return None
        counts = [int(numpy.prod(s, dtype=numpy.int64)) for s, _ in metas]
        rbuf = numpy.empty(sum(counts), dtype=sbuf.dtype)
        self.mpi_comm.Gatherv(sbuf, [rbuf, (counts, _displacements(counts))], root=root)
        return _back_to(_device_of(x), self._split(rbuf, metas, counts))

    def allgather(self, x):
        """Gather one array per rank on every rank (a tuple of `size` arrays)."""
        metas = self.mpi_comm.allgather(_meta('allgather', x))
        _same_dtype('allgather', metas)
        sbuf = _to_wire(x)
        counts = [int(numpy.prod(s, dtype=numpy.int64)) for s, _ in metas]
        rbuf = numpy.empty(sum(counts), dtype=sbuf.dtype)
        self.mpi_comm.Allgatherv(sbuf, [rbuf, (counts, _displacements(counts))])
        return _back_to(_device_of(x), self._split(rbuf, metas, counts))

    def allreduce(self, x):
        """Element-wise sum of `x` over the ranks (same shape on every rank)."""
        _check_array('allreduce', x)
        sbuf = _to_wire(x)
        rbuf = numpy.empty_like(sbuf)
        self.mpi_comm.Allreduce(sbuf, rbuf)
        return _back_to(_device_of(x), rbuf.astype(x.dtype, copy=False))

    def scatter(self, xs, root=0):
        """Send `xs[i]` of `root` to rank `i`; `xs` is a tuple of `size` arrays
        or an array whose first axis has length `size`. Returns this rank's piece."""
        if self.rank == root:
            if isinstance(xs, numpy.ndarray) or _device_of(xs) is not None:
                if xs.ndim == 0 or xs.shape[0] != self.size:
                    raise ValueError(
                        'scatter: the first axis of xs must have length {} (the '
                        'communicator size), got shape {}'.format(self.size, xs.shape))
                pieces = list(xs)
            else:
                pieces = list(xs)
                if len(pieces) != self.size:
                    raise ValueError(
                        'scatter: xs must have {} (the communicator size) arrays, got '
                        '{}'.format(self.size, len(pieces)))
            metas = [_meta('scatter', p) for p in pieces]
            _same_dtype('scatter', metas)
            device = _first_device(pieces)
            self.mpi_comm.scatter([m + (device is not None,) for m in metas], root=root)
            counts = [int(numpy.prod(s, dtype=numpy.int64)) for s, _ in metas]
            sbuf = numpy.concatenate([_to_wire(p).reshape(-1) for p in pieces])
            shape, dt = metas[root]
            rbuf = numpy.empty(shape, dtype=_wire_dtype(dt))
            self.mpi_comm.Scatterv([sbuf, (counts, _displacements(counts))], rbuf,
                                   root=root)
            return _back_to(device, _from_wire(rbuf, dt, shape))
        shape, dt, on_gpu = self.mpi_comm.scatter(None, root=root)
        rbuf = numpy.empty(shape, dtype=_wire_dtype(dt))
        self.mpi_comm.Scatterv(None, rbuf, root=root)
        return _back_to(_current_gpu() if on_gpu else None, _from_wire(rbuf, dt, shape))

    def alltoall(self, xs):
        """Send `xs[i]` to rank `i` and receive one array from every rank."""
        xs = list(xs)
        if len(xs) != self.size:
            raise ValueError(
                'alltoall: xs must have {} (the communicator size) arrays, got {}'.format(
                    self.size, len(xs)))
        smetas = [_meta('alltoall', x) for x in xs]
        _same_dtype('alltoall', smetas)
        rmetas = self.mpi_comm.alltoall(smetas)
        _same_dtype('alltoall', rmetas + smetas)
        scounts = [int(numpy.prod(s, dtype=numpy.int64)) for s, _ in smetas]
        rcounts = [int(numpy.prod(s, dtype=numpy.int64)) for s, _ in rmetas]
        sbuf = numpy.concatenate([_to_wire(x).reshape(-1) for x in xs])
        rbuf = numpy.empty(sum(rcounts), dtype=sbuf.dtype)
        self.mpi_comm.Alltoallv([sbuf, (scounts, _displacements(scounts))],
                                [rbuf, (rcounts, _displacements(rcounts))])
        return _back_to(_first_device(xs), self._split(rbuf, rmetas, rcounts))

    @staticmethod
    def _split(rbuf, metas, counts):
        out = []
        offset = 0
        for (shape, dt), n in zip(metas, counts):
            out.append(_from_wire(rbuf[offset:offset + n], dt, shape))
            offset += n
        return tuple(out)

    # ------------------------------------------------------------------ models
    def bcast_data(self, model):
        """Overwrite every initialized parameter with rank 0's values.

        All ranks first exchange the names, shapes and dtypes of their initialized
        parameters; any difference raises the same `ValueError` on every rank (instead
        of silently corrupting the model or hanging). The arrays then travel in one flat
        buffer per dtype.

        Raises:
            ValueError: the models differ between ranks.
        """
        params = [(name, p) for name, p in _sorted_params(model) if p.array is not None]
        for name, p in params:
            _check_array('bcast_data', p.array, 'parameter {}'.format(name))
        signature = [(name, tuple(p.array.shape), p.array.dtype.str) for name, p in params]
        signatures = self.mpi_comm.allgather(signature)
        for r, sig in enumerate(signatures):
            if sig != signatures[0]:
                raise ValueError(
                    'bcast_data: the model on rank {} does not match the model on rank 0: '
                    '{}'.format(r, _describe_mismatch(signatures[0], sig, r)))
        if not params:
            return
        layout = _packed_buffer.PackedLayout([p for _, p in params], self.bucket_bytes)
        is_root = self.rank == 0
        direct = layout.on_device and self.cuda_aware
        if is_root:
            layout.pack_data(stage=not direct)
        if direct:
            _synchronize(layout)
        Bcast = self.mpi_comm.Bcast
        for group in layout.groups:
            flat = group.device_flat if direct else group.flat
            for a, b in group.ranges:
                Bcast(flat[a:b], root=0)
        if not is_root:
            layout.unpack_data(stage=not direct)

    def multi_node_mean_grad(self, model, zero_fill=False):
        """Replace every gradient of `model` by its mean over the ranks.

        Gradients, divided by the number of ranks, are packed into one reusable flat
        buffer per dtype (float16 as float32) and summed. When every host runs the same
        number (at least 2) of this communicator's processes, the buffers live in an MPI
        shared-memory window of the host: each process sums its slice of all the host's
        buffers, slices are `Allreduce`-d between hosts, and each process copies the
        result back (several times faster than `Allreduce` on one host). Otherwise, or
        with `shared_memory=False`, each private buffer is summed with one in-place
        `Allreduce` per bucket of at most `bucket_bytes`. Afterwards each gradient
        is a view of that buffer (float16 ones a copy); the next backward pass replaces
        it, so do not keep references to gradients across steps. The buffers are kept
        per parameter set (a few models may share a communicator). With one process
        nothing is communicated.

        Args:
            model (Link): The model.
            zero_fill (bool): Initialized parameters whose gradient is None take part as
                zeros (and get a gradient); when False they are skipped (every rank must
                then skip the same ones).
        """
        params = _sorted_params(model)
        if zero_fill:
            key = tuple((id(p), p.array is not None) for _, p in params)
        else:
            key = tuple((id(p), p.array is not None and p.grad is not None)
                        for _, p in params)
        layouts = self._grad_layouts
        layout = layouts.get(key)
        if layout is None:
            chosen = []
            for (name, p), (_, used) in zip(params, key):
                if used:
                    _check_array('multi_node_mean_grad', p.array, 'parameter ' + name)
                    chosen.append(p)
            if len(layouts) >= _MAX_CACHED_LAYOUTS:
                layouts.pop(next(iter(layouts))).release()
            layout = layouts[key] = self._new_grad_layout(chosen)
        self._grad_layout = layout
        if not layout.groups:
            return
        size = self.size
        if size == 1:
            if zero_fill:
                for group in layout.groups:
                    for param, _ in group.entries:
                        if param.grad is None:
                            param.grad = group.xp.zeros_like(param.array)
            return
        # GPU gradients go to MPI from device memory only when the library reads it
        # (CUDA-aware) and no host shared-memory window is used; else through the host.
        direct = layout.on_device and self.cuda_aware and all(
            group.shared is None for group in layout.groups)
        layout.pack_grads(1.0 / size, stage=not direct)
        if direct:
            _synchronize(layout)
        Allreduce = self.mpi_comm.Allreduce
        IN_PLACE = self._MPI.IN_PLACE
        for group in layout.groups:
            if group.shared is not None:
                group.shared.sum()
                continue
            flat = group.device_flat if direct else group.flat
            for a, b in group.ranges:
                Allreduce(IN_PLACE, flat[a:b])
        layout.unpack_grads(stage=not direct)

    def _new_grad_layout(self, params):
        """Collective: the packed layout of `params`, in host shared memory if it can."""
        topo = None
        if self.shared_memory and self.size > 1:
            topo = self._topology
            if topo is _UNKNOWN:
                topo = self._topology = _node_shared.host_topology(
                    self.mpi_comm, self._MPI, self._split_host)
        if topo is None:
            return _packed_buffer.PackedLayout(params, self.bucket_bytes)

        def make_shared(dtype, n, bucket_elems):
            return _node_shared.SharedSum(topo, dtype, n, bucket_elems)
        MPI = self._MPI
        need = _node_shared.window_bytes(topo, _packed_buffer.packed_sizes(params))
        if not self.mpi_comm.allreduce(_node_shared.has_room(need), op=MPI.LAND):
            # Not enough room in /dev/shm on some host for this parameter set.
            return _packed_buffer.PackedLayout(params, self.bucket_bytes)
        try:
            layout = _packed_buffer.PackedLayout(params, self.bucket_bytes, make_shared)
        except (MPI.Exception, NotImplementedError, MemoryError):
            layout = None
        if self.mpi_comm.allreduce(layout is None, op=MPI.LOR):
            # This MPI cannot allocate the window on some process: private buffers from
            # now on (a window allocated elsewhere is left to MPI's finalization).
            self._topology = None
            return _packed_buffer.PackedLayout(params, self.bucket_bytes)
        return layout


def _synchronize(layout):
    # MPI reads device memory outside CuPy's stream: the packing kernels must be done
    layout.groups[0].xp.cuda.get_current_stream().synchronize()


def _describe_mismatch(ref, sig, rank):
    ref_d = {name: (shape, dt) for name, shape, dt in ref}
    sig_d = {name: (shape, dt) for name, shape, dt in sig}
    for name in sorted(set(ref_d) | set(sig_d)):
        a = ref_d.get(name)
        b = sig_d.get(name)
        if a == b:
            continue
        if a is None:
            return 'parameter {} exists on rank {} but not (or uninitialized) on rank 0' \
                .format(name, rank)
        if b is None:
            return 'parameter {} exists on rank 0 but not (or uninitialized) on rank {}' \
                .format(name, rank)
        return 'parameter {} has shape {} {} on rank 0 but {} {} on rank {}'.format(
            name, a[0], numpy.dtype(a[1]), b[0], numpy.dtype(b[1]), rank)
    return 'parameter order differs'
