"""`from_data`: build a TabularDataset from lists, arrays and callables."""
from minichainer import backend
from minichainer.dataset.tabular import tabular_dataset


def from_data(data, *, size=None):
    """Create a `TabularDataset` from lists/arrays/callables.

    `data` may be:

    - a list or array: a one-column dataset (mode `None`);
    - `(key, column)`: the same with a name; `column` may be a callable
      `f(index) -> value`;
    - `((key, ...), callable)`: several columns computed by one callable
      returning a tuple or dict per index;
    - a tuple of the above (mode `tuple`) or a dict `{key: column}` /
      `{(key, ...): callable}` (mode `dict`), joined side by side.

    Args:
        data: See above.
        size (int): Number of rows; required when `data` holds only callables.

    Returns:
        A `TabularDataset`.
    """
    if isinstance(data, tuple):
        if len(data) == 2 and _is_key(data[0]):
            return _column_dataset(data[0], data[1], size)
        entries = [entry if isinstance(entry, tuple) else (None, entry) for entry in data]
        if size is None:
            size = _infer_size(column for _, column in entries)
        datasets = [_column_dataset(key, column, size) for key, column in entries]
        return datasets[0].join(*datasets[1:]).astuple()
    if isinstance(data, dict):
        if size is None:
            size = _infer_size(data.values())
        datasets = [_column_dataset(key, column, size) for key, column in data.items()]
        return datasets[0].join(*datasets[1:]).asdict()
    return _column_dataset(None, data, size)


def _is_key(key):
    return isinstance(key, str) or (
        isinstance(key, tuple) and all(isinstance(k, str) for k in key))


def _infer_size(columns):
    """Length of the first column that has one (callables have none)."""
    for column in columns:
        try:
            return len(column)
        except TypeError:
            pass
    return None


def _column_dataset(key, column, size):
    if isinstance(column, backend.get_array_types()):
        return _Array('_{}'.format(id(column)) if key is None else key, column)
    if isinstance(column, list):
        return _List('_{}'.format(id(column)) if key is None else key, column)
    if callable(column):
        if key is None:
            raise ValueError('from_data: key(s) must be specified for a callable column')
        if size is None:
            raise ValueError('from_data: size must be specified for a callable column '
                             'when no list or array gives the length')
        return _Index(size).transform(key, column)
    raise TypeError('from_data: a column must be a list, an array or a callable, got '
                    '{}'.format(type(column).__name__))


class _Column(tabular_dataset.TabularDataset):
    """One named column held in memory (mode `None`)."""

    def __init__(self, key, data):
        self._key = key
        self._data = data

    def __len__(self):
        return len(self._data)

    @property
    def keys(self):
        return (self._key,)

    @property
    def mode(self):
        return None

    def get_examples(self, indices, key_indices):
        n_cols = 1 if key_indices is None else len(key_indices)
        if indices is None:
            column = self._data
        else:
            column = self._take(indices)
        return (column,) * n_cols


class _Array(_Column):

    def _take(self, indices):
        return self._data[indices]


class _List(_Column):

    def _take(self, indices):
        if isinstance(indices, slice):
            return self._data[indices]
        data = self._data
        return [data[i] for i in indices]


class _Index(tabular_dataset.TabularDataset):
    """The row numbers `0 .. size-1` as a column named `'index'`."""

    def __init__(self, size):
        self._len = size

    def __len__(self):
        return self._len

    @property
    def keys(self):
        return ('index',)

    @property
    def mode(self):
        return None

    def get_examples(self, indices, key_indices):
        if indices is None:
            rows = list(range(self._len))
        elif isinstance(indices, slice):
            rows = list(range(*indices.indices(self._len)))
        else:
            rows = indices
        return (rows,) * (1 if key_indices is None else len(key_indices))
