"""`TabularDataset.astuple` / `asdict`: views with another example representation."""
from minichainer.dataset.tabular import tabular_dataset


class _Astuple(tabular_dataset._Wrapper):

    @property
    def mode(self):
        return tuple


class _Asdict(tabular_dataset._Wrapper):

    @property
    def mode(self):
        return dict
