"""`DelegateDataset`: base class for a TabularDataset built on another one."""
from minichainer.dataset.tabular import tabular_dataset


class DelegateDataset(tabular_dataset.TabularDataset):
    """A TabularDataset that forwards `len`, `keys`, `mode` and
    `get_examples` to `self.dataset`.

    Subclass it to give a dataset assembled with `from_data` (or any
    TabularDataset) its own class and methods.
    [`convert`][minichainer.dataset.tabular.tabular_dataset.TabularDataset.convert] is the default
    one (the wrapped dataset's converter is not used).

    Args:
        dataset (TabularDataset): The underlying dataset.
    """

    def __init__(self, dataset):
        self.dataset = dataset

    def __len__(self):
        return len(self.dataset)

    @property
    def keys(self):
        return self.dataset.keys

    @property
    def mode(self):
        return self.dataset.mode

    def get_examples(self, indices, key_indices):
        return self.dataset.get_examples(indices, key_indices)
