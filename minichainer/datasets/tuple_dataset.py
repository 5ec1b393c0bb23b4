"""Dataset of tuples built from several datasets (`chainer.datasets.TupleDataset`)."""
import numpy

from minichainer.dataset.example_batch import ExampleBatch


class TupleDataset:
    """Dataset whose `i`-th example is `(datasets[0][i], datasets[1][i], ...)`.

    Args:
        datasets: Underlying datasets of equal length (arrays, lists, datasets).

    Raises:
        ValueError: No dataset given, or the lengths differ.

    As in Chainer, a slice gives a list of example tuples, and any other index (an
    int, or an index list/array that the underlying datasets accept) gives the tuple
    `(datasets[0][index], datasets[1][index], ...)`.

    When every underlying dataset is an ndarray, iterators gather a batch with one
    fancy-indexing call per array (see
    [`ExampleBatch`][minichainer.dataset.example_batch.ExampleBatch]).
    """

    def __init__(self, *datasets):
        if not datasets:
            raise ValueError('TupleDataset: no datasets are given')
        lengths = [len(d) for d in datasets]
        if any(n != lengths[0] for n in lengths):
            raise ValueError(
                'TupleDataset: all datasets must have the same length, got lengths '
                '{}'.format(lengths))
        self._datasets = datasets
        self._length = lengths[0]
        self._all_arrays = all(type(d) is numpy.ndarray for d in datasets)

    def __getitem__(self, index):
        batches = [dataset[index] for dataset in self._datasets]
        if isinstance(index, slice):
            length = len(batches[0])
            return [tuple([batch[i] for batch in batches]) for i in range(length)]
        return tuple(batches)

    def __len__(self):
        return self._length

    def get_example_batch(self, indices):
        """Batch protocol: an ExampleBatch of the tuple examples at `indices` (None
        unless every dataset is an ndarray)."""
        if not self._all_arrays:
            return None
        return ExampleBatch(tuple([d[indices] for d in self._datasets]))
