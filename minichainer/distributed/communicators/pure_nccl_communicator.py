"""`chainermn.communicators.pure_nccl_communicator`: NCCL needs CUDA, so the class
exists (code may name it, e.g. to compare a communicator's type) but cannot be built."""
from minichainer.distributed.communicators import mpi_communicator_base


class PureNcclCommunicator(mpi_communicator_base.MpiCommunicatorBase):
    """ChainerMN's NCCL communicator; constructing it raises RuntimeError here."""

    def __init__(self, mpi_comm, *args, **kwargs):
        raise RuntimeError(
            'PureNcclCommunicator requires NCCL 2.0+, but NCCL is not available '
            "(minichainer runs on the CPU); use create_communicator('naive') or 'flat'")
