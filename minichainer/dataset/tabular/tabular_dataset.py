"""`chainer.dataset.TabularDataset`: datasets of rows that all have the same columns.

The operations (`slice`, `concat`, `join`, `transform`, ...) return lazy views;
they live in the private modules of this package, as in Chainer.
"""
import numpy

from minichainer import backend
# The views' modules import this one for the base class; their package is complete by
# the time a method below runs, so they are reached through it (as Chainer does).
from minichainer.dataset import tabular as tabular_package
from minichainer.dataset.dataset_mixin import DatasetMixin


class TabularDataset(DatasetMixin):
    """Abstract dataset whose examples all have the same columns (`keys`).

    An example is a tuple, a dict (key -> value) or, for a single column, a bare
    value, according to [`mode`][minichainer.dataset.tabular.tabular_dataset.TabularDataset.mode]
    (`tuple`, `dict` or `None`).

    Subclasses implement `__len__`,
    [`keys`][minichainer.dataset.tabular.tabular_dataset.TabularDataset.keys],
    [`mode`][minichainer.dataset.tabular.tabular_dataset.TabularDataset.mode] and
    [`get_examples`][minichainer.dataset.tabular.tabular_dataset.TabularDataset.get_examples].
    """

    def __len__(self):
        raise NotImplementedError

    @property
    def keys(self):
        """Column names: a tuple of strings."""
        raise NotImplementedError

    @property
    def mode(self):
        """How examples are represented: `tuple`, `dict` or `None` (bare value)."""
        raise NotImplementedError

    def get_examples(self, indices, key_indices):
        """Return the requested part of the data, column-major.

        Args:
            indices (list of ints or slice): Rows; `None` means all rows.
            key_indices (tuple of ints): Columns; `None` means all columns.

        Returns:
            A tuple with one list/array per requested column.
        """
        raise NotImplementedError

    @property
    def slice(self):
        """Indexer for views: `dataset.slice[indices]` or
        `dataset.slice[indices, keys]` (rows: ints, bools or a slice; keys: a tuple
        of ints/strs, or a single int/str which makes the view's mode `None`)."""
        return tabular_package._slice._SliceHelper(self)

    def fetch(self):
        """All the data, column-major: a tuple or dict of lists/arrays, or a single
        list/array when [`mode`][minichainer.dataset.tabular.tabular_dataset.TabularDataset.mode]
        is `None`."""
        return self._pack_columns(self.get_examples(None, None))

    def convert(self, data):
        """Turn fetched data into arrays (each column becomes an ndarray).

        [`with_converter`][minichainer.dataset.tabular.tabular_dataset.TabularDataset.with_converter]
        replaces this; a concatenated or joined dataset uses the converter of its first dataset.
        """
        if isinstance(data, tuple):
            return tuple(_as_array(column) for column in data)
        if isinstance(data, dict):
            return {key: _as_array(column) for key, column in data.items()}
        return _as_array(data)

    def astuple(self):
        """A view whose [`mode`][minichainer.dataset.tabular.tabular_dataset.TabularDataset.mode]
        is `tuple`."""
        return tabular_package._asmode._Astuple(self)

    def asdict(self):
        """A view whose [`mode`][minichainer.dataset.tabular.tabular_dataset.TabularDataset.mode]
        is `dict`."""
        return tabular_package._asmode._Asdict(self)

    # minichainer's earlier spellings
    as_tuple = astuple
    as_dict = asdict

    def concat(self, *datasets):
        """Stack this dataset and `datasets` (same
        [`keys`][minichainer.dataset.tabular.tabular_dataset.TabularDataset.keys]) along rows."""
        return tabular_package._concat._Concat(self, *datasets)

    def join(self, *datasets):
        """Put this dataset and `datasets` (same length, distinct keys) side by
        side: the result has the columns of all of them."""
        return tabular_package._join._Join(self, *datasets)

    def transform(self, keys, transform):
        """Apply `transform` to each example.

        Args:
            keys (tuple of strs or str): Keys of the transformed examples.
            transform (callable): Called with an example (unpacked as positional
                arguments in tuple mode, keyword arguments in dict mode); returns
                a tuple, a dict or a single value, which sets the new mode.
        """
        return tabular_package._transform._Transform(self, keys, transform)

    def transform_batch(self, keys, transform_batch):
        """Like [`transform`][minichainer.dataset.tabular.tabular_dataset.TabularDataset.transform],
        but `transform_batch` receives whole columns and returns columns of the same length."""
        return tabular_package._transform._TransformBatch(self, keys, transform_batch)

    def with_converter(self, converter):
        """A view whose
        [`convert`][minichainer.dataset.tabular.tabular_dataset.TabularDataset.convert] calls
        `converter` (with the columns as positional arguments in tuple mode, keyword arguments in
        dict mode)."""
        return tabular_package._with_converter._WithConverter(self, converter)

    def get_example(self, i):
        return self._pack_example(self.get_examples([i], None))

    def __iter__(self):
        for i in range(len(self)):
            yield self.get_example(i)

    def _pack_columns(self, columns):
        mode = self.mode
        if mode is tuple:
            return columns
        if mode is dict:
            return dict(zip(self.keys, columns))
        if mode is None:
            return columns[0]
        raise ValueError('{}: mode must be tuple, dict or None, got {!r}'.format(
            type(self).__name__, mode))

    def _pack_example(self, columns):
        return self._pack_columns(tuple(column[0] for column in columns))


class _Wrapper(TabularDataset):
    """A view that forwards everything to `self._dataset` (subclasses override)."""

    def __init__(self, dataset):
        self._dataset = dataset

    def __len__(self):
        return len(self._dataset)

    @property
    def keys(self):
        return self._dataset.keys

    @property
    def mode(self):
        return self._dataset.mode

    def get_examples(self, indices, key_indices):
        return self._dataset.get_examples(indices, key_indices)

    def convert(self, data):
        return self._dataset.convert(data)


def _as_array(column):
    if isinstance(column, backend.get_array_types()):
        return column
    xp = backend.get_array_module(column[0]) if len(column) else numpy
    return xp.asarray(column)
