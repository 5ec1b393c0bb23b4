"""Tabular datasets (`chainer.dataset.tabular`)."""
from minichainer.dataset.tabular import _asmode  # noqa: F401
from minichainer.dataset.tabular import _concat  # noqa: F401
from minichainer.dataset.tabular import _join  # noqa: F401
from minichainer.dataset.tabular import _slice  # noqa: F401
from minichainer.dataset.tabular import _transform  # noqa: F401
from minichainer.dataset.tabular import _with_converter  # noqa: F401

from minichainer.dataset.tabular.delegate_dataset import DelegateDataset  # noqa: F401
from minichainer.dataset.tabular.from_data import from_data  # noqa: F401
from minichainer.dataset.tabular.tabular_dataset import TabularDataset  # noqa: F401
