import numpy
import pytest

from minichainer.dataset import DatasetMixin


class _Squares(DatasetMixin):
    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n

    def get_example(self, i):
        if not -self.n <= i < self.n:
            raise IndexError(i)
        return (i % self.n) ** 2


def test_int_slice_list_and_array_indexing():
    ds = _Squares(6)
    assert ds[2] == 4
    assert ds[-1] == 25
    assert ds[1:5:2] == [1, 9]
    assert ds[::-2] == [25, 9, 1]
    assert ds[[4, 0]] == [16, 0]
    assert ds[numpy.arange(3)] == [0, 1, 4]
    assert len(ds) == 6
    with pytest.raises(IndexError):
        ds[6]


def test_unimplemented_methods_raise():
    class Empty(DatasetMixin):
        pass

    with pytest.raises(NotImplementedError, match='__len__'):
        len(Empty())
    with pytest.raises(NotImplementedError, match='get_example'):
        Empty()[0]
