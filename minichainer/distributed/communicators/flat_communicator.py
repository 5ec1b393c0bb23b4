"""`flat` communicator: gradients packed into one flat buffer per step."""
from minichainer.distributed.communicators import mpi_communicator_base


class FlatCommunicator(mpi_communicator_base.MpiCommunicatorBase):
    """The `flat` communicator (ChainerMN ran it on GPUs; here on host arrays)."""
