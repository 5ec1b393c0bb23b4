"""`chainermn.datasets.scatter`: ChainerMN's name of the module holding
`scatter_dataset` and `scatter_index`."""
from minichainer.distributed.datasets.scatter_dataset import (  # noqa: F401
    DataSizeError, _scatter_index, scatter_dataset, scatter_index)
