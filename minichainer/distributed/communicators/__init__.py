"""Communicators (`chainermn.communicators`) and `create_communicator`."""
from minichainer.utils import argument
from minichainer.distributed.communicators.communicator_base import CommunicatorBase  # noqa: F401
from minichainer.distributed.communicators.flat_communicator import FlatCommunicator
from minichainer.distributed.communicators.mpi_communicator_base import \
    MpiCommunicatorBase  # noqa: F401
from minichainer.distributed.communicators.naive_communicator import NaiveCommunicator
from minichainer.distributed.communicators.non_cuda_aware_communicator import \
    NonCudaAwareCommunicator

_CPU = ('naive', 'flat', 'non_cuda_aware')
_GPU_ONLY = ('pure_nccl', 'hierarchical', 'two_dimensional', 'single_node')


def create_communicator(communicator_name='naive', mpi_comm=None, **kwargs):
    """Create a communicator over MPI.

    `naive`, `flat` and `non_cuda_aware` all average gradients on host arrays
    packed in one buffer, summed through MPI shared memory between the processes of a
    host and with `Allreduce` between hosts; a model on a GPU (CuPy) is packed on the
    device and staged through that host buffer (or handed to a CUDA-aware MPI). The
    NCCL communicators of ChainerMN (`pure_nccl`, `hierarchical`, `two_dimensional`,
    `single_node`) are not implemented and raise a `ValueError` saying so.

    Deliberate difference from ChainerMN: the default is `'naive'` (ChainerMN 7
    defaulted to `'pure_nccl'`, which needs a GPU).

    Args:
        communicator_name (str): Name of the communicator.
        mpi_comm: An `mpi4py.MPI.Comm` (`MPI.COMM_WORLD` when None).
        allreduce_grad_dtype: Only for `pure_nccl`; must be None here.
        batched_copy (bool): Accepted for compatibility (no effect).
        bucket_bytes (int): minichainer addition: the largest single gradient Allreduce
            in bytes (64 MiB by default).
        shared_memory (bool): minichainer addition: when several processes share a
            host, average gradients through an MPI shared-memory window (default True);
            False uses `Allreduce` only.

    Returns:
        A `MpiCommunicatorBase`.

    Raises:
        ImportError: mpi4py / MPI is not installed (`pip install minichainer[mpi]`).
        ValueError: unknown or GPU-only name, or `allreduce_grad_dtype` given.
    """
    allreduce_grad_dtype, batched_copy, bucket_bytes, shared_memory = \
        argument.parse_kwargs(
            kwargs, ('allreduce_grad_dtype', None), ('batched_copy', True),
            ('bucket_bytes', None), ('shared_memory', True))
    if communicator_name in _GPU_ONLY:
        raise ValueError(
            'create_communicator: the {!r} communicator needs GPUs with NCCL, which '
            'minichainer\'s communicators do not use; use one of the MPI communicators {} '
            '(they take NumPy and CuPy arrays, the latter through host memory or, with a '
            'CUDA-aware MPI, directly)'.format(
                communicator_name, ', '.join(repr(n) for n in _CPU)))
    if communicator_name not in _CPU:
        raise ValueError(
            'create_communicator: unrecognized communicator {!r}; expected one of {}'
            .format(communicator_name, ', '.join(repr(n) for n in _CPU + _GPU_ONLY)))
    if allreduce_grad_dtype is not None:
        raise ValueError(
            "create_communicator: allreduce_grad_dtype is only available with the "
            "'pure_nccl' communicator, got {!r} for {!r}".format(
                allreduce_grad_dtype, communicator_name))
    cls = {'naive': NaiveCommunicator, 'flat': FlatCommunicator,
           'non_cuda_aware': NonCudaAwareCommunicator}[communicator_name]
    extra = {'shared_memory': shared_memory}
    if bucket_bytes is not None:
        extra['bucket_bytes'] = bucket_bytes
    comm = cls(mpi_comm=mpi_comm, **extra)
    comm.set_config('batched_copy', batched_copy)
    return comm
