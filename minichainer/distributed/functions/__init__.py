"""Differentiable communication functions (`chainermn.functions`)."""
from minichainer.distributed.functions.batch_normalization import multi_node_batch_normalization  # noqa: F401,E501
from minichainer.distributed.functions.collective_communication import allgather  # noqa: F401
from minichainer.distributed.functions.collective_communication import alltoall  # noqa: F401
from minichainer.distributed.functions.collective_communication import bcast  # noqa: F401
from minichainer.distributed.functions.collective_communication import gather  # noqa: F401
from minichainer.distributed.functions.collective_communication import scatter  # noqa: F401
from minichainer.distributed.functions.point_to_point_communication import recv  # noqa: F401
from minichainer.distributed.functions.point_to_point_communication import send  # noqa: F401
from minichainer.distributed.functions.pseudo_connect import pseudo_connect  # noqa: F401
