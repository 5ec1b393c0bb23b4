"""Multi-process data-parallel training on MPI with ChainerMN's API (`chainermn`).

`import minichainer.distributed as chainermn` gives the names ChainerMN programs use:
`create_communicator`, `create_multi_node_optimizer`,
`scatter_dataset`, `scatter_index`, `create_multi_node_evaluator`,
`create_multi_node_checkpointer`, `links`, `functions`, ... mpi4py is
imported only when a communicator is created (`pip install minichainer[mpi]`).

Deliberate differences from ChainerMN: CPU only (GPU communicators raise), the default
communicator is `'naive'`, gradients always travel packed in a few buffers, and the
global exception hook that aborts the whole job on an uncaught exception is installed by
default (see `global_except_hook`).
"""
from minichainer.distributed import communicators  # noqa: F401
from minichainer.distributed import datasets  # noqa: F401
from minichainer.distributed import extensions  # noqa: F401
from minichainer.distributed import functions  # noqa: F401
from minichainer.distributed import global_except_hook  # noqa: F401
from minichainer.distributed import iterators  # noqa: F401
from minichainer.distributed import links  # noqa: F401
from minichainer.distributed import optimizers  # noqa: F401
from minichainer.distributed import testing  # noqa: F401

from minichainer.distributed.communicators import CommunicatorBase  # noqa: F401
from minichainer.distributed.communicators import create_communicator  # noqa: F401
from minichainer.distributed.datasets import create_empty_dataset  # noqa: F401
from minichainer.distributed.datasets import DataSizeError  # noqa: F401
from minichainer.distributed.datasets import scatter_dataset  # noqa: F401
from minichainer.distributed.datasets import scatter_index  # noqa: F401
from minichainer.distributed.extensions import create_multi_node_checkpointer  # noqa: F401
from minichainer.distributed.extensions import create_multi_node_evaluator  # noqa: F401
from minichainer.distributed.extensions import multi_node_snapshot  # noqa: F401
from minichainer.distributed.iterators import create_multi_node_iterator  # noqa: F401
from minichainer.distributed.iterators import create_synchronized_iterator  # noqa: F401
from minichainer.distributed.links import MultiNodeBatchNormalization  # noqa: F401
from minichainer.distributed.links import MultiNodeChainList  # noqa: F401
from minichainer.distributed.optimizers import create_multi_node_optimizer  # noqa: F401

global_except_hook.add_hook_if_enabled()

__version__ = '7.8.1'
