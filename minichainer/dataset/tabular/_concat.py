"""`TabularDataset.concat`: datasets with the same keys stacked along rows."""
from minichainer.dataset.tabular import tabular_dataset


class _Concat(tabular_dataset.TabularDataset):

    def __init__(self, *datasets):
        keys = datasets[0].keys
        for dataset in datasets[1:]:
            if dataset.keys != keys:
                raise ValueError(
                    'TabularDataset.concat: all datasets must have the same keys, got '
                    '{} and {}'.format(keys, dataset.keys))
        self._datasets = datasets

    def __len__(self):
        return sum(len(dataset) for dataset in self._datasets)

    @property
    def keys(self):
        return self._datasets[0].keys

    @property
    def mode(self):
        return self._datasets[0].mode

    def convert(self, data):
        return self._datasets[0].convert(data)

    def get_examples(self, indices, key_indices):
        n_cols = len(self.keys) if key_indices is None else len(key_indices)
        if indices is None:
            parts = [dataset.get_examples(None, key_indices) for dataset in self._datasets]
            return _chain_columns(parts, n_cols)
        if isinstance(indices, slice):
            return self._get_slice(indices, key_indices, n_cols)
        return self._get_list(indices, key_indices, n_cols)

    def _get_slice(self, indices, key_indices, n_cols):
        start, stop, step = indices.indices(len(self))
        parts = []
        offset = 0
        for dataset in self._datasets:
            n = len(dataset)
            # the global slice restricted to this dataset, in its local coordinates
            local_start, local_stop = start - offset, stop - offset
            if step > 0:
                if local_start < 0:  # first selected row of this dataset
                    local_start %= step
                local_stop = min(local_stop, n)
            else:
                if local_start >= n:
                    local_start = n + (local_start - n) % step
                local_stop = max(local_stop, -1)
            if len(range(local_start, local_stop, step)):
                # a negative stop of a backward slice means "through row 0"
                parts.append(dataset.get_examples(
                    slice(local_start, None if local_stop < 0 else local_stop, step),
                    key_indices))
            offset += n
        if len(parts) == 1:
            return parts[0]
        if step < 0:
            parts.reverse()
        return _chain_columns(parts, n_cols)

    def _get_list(self, indices, key_indices, n_cols):
        # where each requested row comes from: (part number, position in that part)
        origin = [None] * len(indices)
        parts = []
        offset = 0
        for dataset in self._datasets:
            n = len(dataset)
            local = []
            for position, index in enumerate(indices):
                if offset <= index < offset + n:
                    origin[position] = (len(parts), len(local))
                    local.append(index - offset)
            if local:
                parts.append(dataset.get_examples(local, key_indices))
            offset += n
        if None in origin:
            bad = indices[origin.index(None)]
            raise IndexError('TabularDataset.concat: index {} is out of bounds for a dataset '
                             'of length {}'.format(bad, offset))
        if not parts:
            return tuple([] for _ in range(n_cols))
        if len(parts) == 1:
            return parts[0]
        return tuple([parts[part][col][p] for part, p in origin] for col in range(n_cols))


def _chain_columns(parts, n_cols):
    """Column-wise concatenation of column tuples, as lists."""
    return tuple([value for part in parts for value in part[col]] for col in range(n_cols))
