"""`TabularDataset.transform` / `transform_batch`: examples mapped by a callable."""
from minichainer.dataset.tabular import tabular_dataset

_UNSET = object()  # mode not known until the transform has been called once


def _call_with(func, dataset, values):
    """Call `func` on an example (or on columns) of `dataset` by its mode."""
    if dataset.mode is dict:
        return func(**dict(zip(dataset.keys, values)))
    return func(*values)


class _TransformBase(tabular_dataset.TabularDataset):

    _what = 'transform'

    def __init__(self, dataset, keys, func):
        if not isinstance(keys, tuple):
            keys = (keys,)
        if not callable(func):
            raise TypeError('TabularDataset.{}: {} must be callable, got {}'.format(
                self._what, self._what, type(func).__name__))
        self._dataset = dataset
        self._keys = keys
        self._func = func
        self._mode = _UNSET

    def __len__(self):
        return len(self._dataset)

    @property
    def keys(self):
        return self._keys

    @property
    def mode(self):
        if self._mode is _UNSET:
            self.get_examples([0], None)  # the output type tells the mode
        return self._mode

    def convert(self, data):
        return self._dataset.convert(data)

    def _record_mode(self, output):
        """Mode of `output`; the callable must keep returning the same kind."""
        if isinstance(output, tuple):
            mode = tuple
        elif isinstance(output, dict):
            mode = dict
        else:
            mode = None
        if self._mode is not _UNSET and self._mode is not mode:
            raise ValueError('TabularDataset.{}: {} must not change its return type '
                             '(returned {} after returning {})'.format(
                                 self._what, self._what, _mode_name(mode),
                                 _mode_name(self._mode)))
        self._mode = mode
        return mode

    def _select(self, output, mode, key_indices):
        """The requested columns of an output (tuple, dict or single value)."""
        if mode is dict:
            return [output[self._keys[k]] for k in key_indices]
        if mode is None:
            output = (output,)
        return [output[k] for k in key_indices]


def _mode_name(mode):
    return 'a single value' if mode is None else 'a ' + mode.__name__


class _Transform(_TransformBase):

    _what = 'transform'

    def get_examples(self, indices, key_indices):
        if key_indices is None:
            key_indices = range(len(self._keys))
        dataset = self._dataset
        columns = tuple([] for _ in key_indices)
        for example in zip(*dataset.get_examples(indices, None)):
            output = _call_with(self._func, dataset, example)
            values = self._select(output, self._record_mode(output), key_indices)
            for column, value in zip(columns, values):
                column.append(value)
        return columns


class _TransformBatch(_TransformBase):

    _what = 'transform_batch'

    def get_examples(self, indices, key_indices):
        dataset = self._dataset
        if indices is None:
            n_rows = len(dataset)
        elif isinstance(indices, slice):
            n_rows = len(range(*indices.indices(len(dataset))))
        else:
            n_rows = len(indices)
        if key_indices is None:
            key_indices = range(len(self._keys))
        output = _call_with(self._func, dataset, dataset.get_examples(indices, None))
        mode = self._record_mode(output)
        out_columns = output.values() if mode is dict else (
            (output,) if mode is None else output)
        for column in out_columns:
            if len(column) != n_rows:
                raise ValueError(
                    'TabularDataset.transform_batch: transform_batch must not change the '
                    'length of data (got a column of length {} for {} rows)'.format(
                        len(column), n_rows))
        return tuple(self._select(output, mode, key_indices))
