"""ChainerMN's private module name of `multi_node_snapshot` (Chainer-era code and
ChainerMN's tests import `_parse_replica_sets` and `_MultiNodeSnapshot` from it)."""
from minichainer.distributed.extensions.multi_node_snapshot import (  # noqa: F401
    _MultiNodeSnapshot, _parse_replica_sets, multi_node_snapshot)
