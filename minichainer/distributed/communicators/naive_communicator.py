"""`naive` communicator: MPI collectives on host arrays."""
from minichainer.distributed.communicators import mpi_communicator_base


class NaiveCommunicator(mpi_communicator_base.MpiCommunicatorBase):
    """The `naive` communicator.

    Deliberate difference from ChainerMN: its gradients travel packed in one reusable
    flat buffer (ChainerMN's `naive` made one Allreduce per parameter), like `flat`.
    """
