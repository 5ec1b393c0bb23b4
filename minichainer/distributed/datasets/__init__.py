"""Datasets for multi-process training (`chainermn.datasets`)."""
from minichainer.distributed.datasets.empty_dataset import create_empty_dataset  # noqa: F401
from minichainer.distributed.datasets.scatter_dataset import DataSizeError  # noqa: F401
from minichainer.distributed.datasets.scatter_dataset import scatter_dataset  # noqa: F401
from minichainer.distributed.datasets.scatter_dataset import scatter_index  # noqa: F401
from minichainer.distributed.datasets import scatter  # noqa: F401  (ChainerMN's module name)
