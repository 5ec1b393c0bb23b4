"""A TabularDataset over a random (n_keys, len) array that records get_examples calls."""
import numpy

from minichainer.dataset import TabularDataset


class Dummy(TabularDataset):

    def __init__(self, len_=10, keys=('a', 'b', 'c'), mode=tuple, return_array=False,
                 seed=0):
        self._keys = keys
        self._mode = mode
        self._return_array = return_array
        self.calls = []
        self.data = numpy.random.RandomState(seed).uniform(size=(len(keys), len_))

    def __len__(self):
        return self.data.shape[1]

    @property
    def keys(self):
        return self._keys

    @property
    def mode(self):
        return self._mode

    def get_examples(self, indices, key_indices):
        self.calls.append((indices, key_indices))
        data = self.data
        if indices is not None:
            data = data[:, indices]
        if key_indices is not None:
            data = data[list(key_indices)]
        return tuple(data) if self._return_array else tuple(list(d) for d in data)


def assert_columns(output, expected, return_array):
    assert isinstance(output, tuple) and len(output) == len(expected)
    for out, exp in zip(output, expected):
        assert isinstance(out, numpy.ndarray if return_array else list)
        numpy.testing.assert_array_equal(numpy.asarray(out), exp)
