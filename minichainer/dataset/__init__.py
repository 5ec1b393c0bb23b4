"""Dataset utilities (`chainer.dataset`): base classes, converters and downloads."""
from minichainer.dataset import convert  # noqa: F401
from minichainer.dataset import dataset_mixin  # noqa: F401
from minichainer.dataset import download  # noqa: F401
from minichainer.dataset import iterator  # noqa: F401
from minichainer.dataset import tabular  # noqa: F401

from minichainer.dataset.convert import _call_converter  # noqa: F401
from minichainer.dataset.convert import call_converter  # noqa: F401
from minichainer.dataset.convert import concat_examples  # noqa: F401
from minichainer.dataset.convert import ConcatWithAsyncTransfer  # noqa: F401
from minichainer.dataset.convert import Converter  # noqa: F401
from minichainer.dataset.convert import converter  # noqa: F401
from minichainer.dataset.convert import to_device  # noqa: F401
from minichainer.dataset.dataset_mixin import DatasetMixin  # noqa: F401
from minichainer.dataset.download import cache_or_load_file  # noqa: F401
from minichainer.dataset.download import cached_download  # noqa: F401
from minichainer.dataset.download import get_dataset_directory  # noqa: F401
from minichainer.dataset.download import get_dataset_root  # noqa: F401
from minichainer.dataset.download import set_dataset_root  # noqa: F401
from minichainer.dataset.example_batch import BatchLayout  # noqa: F401
from minichainer.dataset.example_batch import ExampleBatch  # noqa: F401
from minichainer.dataset.example_batch import gather_batch  # noqa: F401
from minichainer.dataset.iterator import Iterator  # noqa: F401
from minichainer.dataset.tabular import TabularDataset  # noqa: F401
