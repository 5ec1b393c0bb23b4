"""Iterators for multi-process training (`chainermn.iterators`)."""
from minichainer.distributed.iterators.multi_node_iterator import create_multi_node_iterator  # noqa: F401,E501
from minichainer.distributed.iterators.synchronized_iterator import create_synchronized_iterator  # noqa: F401,E501
