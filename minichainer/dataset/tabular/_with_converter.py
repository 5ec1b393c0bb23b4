"""`TabularDataset.with_converter`: a view with a user-given `convert`."""
from minichainer.dataset.tabular import tabular_dataset


class _WithConverter(tabular_dataset._Wrapper):

    def __init__(self, dataset, converter):
        if not callable(converter):
            raise TypeError('TabularDataset.with_converter: converter must be callable, '
                            'got {}'.format(type(converter).__name__))
        super().__init__(dataset)
        self._converter = converter

    def convert(self, data):
        if isinstance(data, tuple):
            return self._converter(*data)
        if isinstance(data, dict):
            return self._converter(**data)
        return self._converter(data)
