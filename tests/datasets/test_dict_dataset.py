import numpy
import pytest

from minichainer.datasets import DictDataset


def test_examples_and_indexing():
    ds = DictDataset(x=numpy.arange(4), y=numpy.array(['a', 'b', 'c', 'd']))
    assert len(ds) == 4
    assert ds[2] == {'x': 2, 'y': 'c'}
    assert ds[1:3] == [{'x': 1, 'y': 'b'}, {'x': 2, 'y': 'c'}]
    # as in Chainer, an index list indexes every dataset: a dict of batches
    got = ds[[3, 0]]
    assert list(got['x']) == [3, 0] and list(got['y']) == ['d', 'a']


def test_errors():
    with pytest.raises(ValueError, match='no datasets'):
        DictDataset()
    with pytest.raises(ValueError, match='"b"'):
        DictDataset(a=[1, 2], b=[1])
