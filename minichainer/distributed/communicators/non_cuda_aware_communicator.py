"""`non_cuda_aware` communicator: host-memory MPI (the only kind here)."""
from minichainer.distributed.communicators import mpi_communicator_base


class NonCudaAwareCommunicator(mpi_communicator_base.MpiCommunicatorBase):
    """The `non_cuda_aware` communicator: on CPU it is the same as `flat`."""
