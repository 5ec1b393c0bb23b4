"""Tabular datasets (``chainer.dataset.tabular``); only the core is provided."""
from minichainer.dataset.tabular.tabular_dataset import TabularDataset  # noqa: F401
