"""`TabularDataset.join`: datasets of the same length side by side (columns added)."""
from minichainer.dataset.tabular import tabular_dataset


class _Join(tabular_dataset.TabularDataset):

    def __init__(self, *datasets):
        length = len(datasets[0])
        seen = set(datasets[0].keys)
        for dataset in datasets[1:]:
            if len(dataset) != length:
                raise ValueError(
                    'TabularDataset.join: all datasets must have the same length, got '
                    '{} and {}'.format(length, len(dataset)))
            common = seen.intersection(dataset.keys)
            if common:
                raise ValueError(
                    'TabularDataset.join: keys must be unique among all datasets, {} '
                    'appear(s) twice'.format(sorted(common)))
            seen.update(dataset.keys)
        self._datasets = datasets

    def __len__(self):
        return len(self._datasets[0])

    @property
    def keys(self):
        return tuple(key for dataset in self._datasets for key in dataset.keys)

    @property
    def mode(self):
        # the first dataset with a tuple/dict mode decides; all unary -> tuple
        for dataset in self._datasets:
            if dataset.mode:
                return dataset.mode
        return tuple

    def convert(self, data):
        return self._datasets[0].convert(data)

    def get_examples(self, indices, key_indices):
        if key_indices is None:
            return tuple(column for dataset in self._datasets
                         for column in dataset.get_examples(indices, None))
        columns = {}
        first = 0  # position of the dataset's first key among all keys
        for dataset in self._datasets:
            n_keys = len(dataset.keys)
            local = []
            for k in key_indices:
                if first <= k < first + n_keys and k - first not in local:
                    local.append(k - first)
            if local:
                local = tuple(local)
                for k, column in zip(local, dataset.get_examples(indices, local)):
                    columns[first + k] = column
            first += n_keys
        try:
            return tuple(columns[k] for k in key_indices)
        except KeyError as e:
            raise IndexError('TabularDataset.join: key index {} is out of bounds for {} '
                             'keys'.format(e.args[0], first)) from None
