"""Dataset applying a function to each example (`chainer.datasets.TransformDataset`)."""
from minichainer.dataset import dataset_mixin


class TransformDataset(dataset_mixin.DatasetMixin):
    """Dataset returning `transform(dataset[i])`, computed on every access.

    Args:
        dataset: Underlying dataset.
        transform (callable): Function applied to each example.
    """

    def __init__(self, dataset, transform):
        if not callable(transform):
            raise TypeError('TransformDataset: transform must be callable, got '
                            '{!r}'.format(transform))
        self._dataset = dataset
        self._transform = transform

    def __len__(self):
        return len(self._dataset)

    def get_example(self, i):
        return self._transform(self._dataset[i])
