"""Links for multi-process training (`chainermn.links`)."""
from minichainer.distributed.links.batch_normalization import MultiNodeBatchNormalization  # noqa: F401,E501
from minichainer.distributed.links.create_mnbn_model import create_mnbn_model  # noqa: F401
from minichainer.distributed.links.multi_node_chain_list import MultiNodeChainList  # noqa: F401,E501
