"""Dataset of dicts built from named datasets (`chainer.datasets.DictDataset`)."""
import numpy

from minichainer.dataset.example_batch import ExampleBatch


class DictDataset:
    """Dataset whose `i`-th example is `{key: datasets[key][i] for each key}`.

    Args:
        datasets: Underlying datasets of equal length, as keyword arguments.

    Raises:
        ValueError: No dataset given, or the lengths differ.

    As in Chainer, a slice gives a list of example dicts, and any other index gives
    `{key: datasets[key][index]}`.
    """

    def __init__(self, **datasets):
        if not datasets:
            raise ValueError('DictDataset: no datasets are given')
        length = None
        for key, dataset in datasets.items():
            if length is None:
                length = len(dataset)
            elif length != len(dataset):
                raise ValueError(
                    'DictDataset: dataset length conflicts at "{}": {} != {}'.format(
                        key, len(dataset), length))
        self._datasets = datasets
        self._length = length
        self._all_arrays = all(type(d) is numpy.ndarray for d in datasets.values())

    def __getitem__(self, index):
        batches = {key: dataset[index] for key, dataset in self._datasets.items()}
        if isinstance(index, slice):
            length = len(next(iter(batches.values())))
            return [{key: batch[i] for key, batch in batches.items()}
                    for i in range(length)]
        return batches

    def __len__(self):
        return self._length

    def get_example_batch(self, indices):
        """Batch protocol: an ExampleBatch of the dict examples at `indices` (None
        unless every dataset is an ndarray)."""
        if not self._all_arrays:
            return None
        return ExampleBatch({k: d[indices] for k, d in self._datasets.items()})
