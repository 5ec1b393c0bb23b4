"""Default indexing for datasets (`chainer.dataset.DatasetMixin`)."""
import numpy


class DatasetMixin:
    """Gives a dataset `__getitem__` built on
    [`get_example`][minichainer.dataset.dataset_mixin.DatasetMixin.get_example].

    Subclasses implement `__len__` and `get_example(i)`. Indexing with an int
    returns one example; with a slice, a list or a 1-D integer ndarray it returns a
    list of examples.
    """

    def __getitem__(self, index):
        if isinstance(index, slice):
            start, stop, step = index.indices(len(self))
            get = self.get_example
            return [get(i) for i in range(start, stop, step)]
        if isinstance(index, (list, numpy.ndarray)):
            get = self.get_example
            return [get(i) for i in index]
        return self.get_example(index)

    def __len__(self):
        """Return the number of examples."""
        raise NotImplementedError(
            '{}: a dataset must implement __len__'.format(type(self).__name__))

    def get_example(self, i):
        """Return the `i`-th example (raise `IndexError` when out of range)."""
        raise NotImplementedError(
            '{}: a dataset must implement get_example'.format(type(self).__name__))
