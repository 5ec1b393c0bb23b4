"""Links for multi-process training (``chainermn.links``)."""
from minichainer.distributed.links.batch_normalization import MultiNodeBatchNormalization  # noqa: F401,E501
