"""Concatenation of datasets (`chainer.datasets.ConcatenatedDataset`)."""
from minichainer.dataset import dataset_mixin


class ConcatenatedDataset(dataset_mixin.DatasetMixin):
    """Dataset made of the examples of several datasets, one after another.

    Args:
        datasets: The datasets to concatenate.
    """

    def __init__(self, *datasets):
        self._datasets = datasets

    def __len__(self):
        return sum(len(dataset) for dataset in self._datasets)

    def get_example(self, i):
        if i < 0:
            raise IndexError('ConcatenatedDataset: negative index {} is not '
                             'supported'.format(i))
        for dataset in self._datasets:
            if i < len(dataset):
                return dataset[i]
            i -= len(dataset)
        raise IndexError('ConcatenatedDataset: index out of range')
