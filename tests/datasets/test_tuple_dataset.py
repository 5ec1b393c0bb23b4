import numpy
import pytest

from minichainer.datasets import TupleDataset


def test_examples_and_indexing():
    x = numpy.arange(10).reshape(5, 2)
    y = numpy.arange(5) * 10
    ds = TupleDataset(x, y, list('abcde'))
    assert len(ds) == 5
    a, b, c = ds[1]
    numpy.testing.assert_array_equal(a, [2, 3])
    assert b == 10 and c == 'b'
    sliced = ds[1:4:2]
    assert isinstance(sliced, list) and [e[2] for e in sliced] == ['b', 'd']
    arrays = TupleDataset(x, y)
    # as in Chainer, an index list/array indexes every dataset: a tuple of batches
    assert list(arrays[numpy.array([4, 0])][1]) == [40, 0]
    assert list(arrays[[3]][1]) == [30]


def test_errors():
    with pytest.raises(ValueError, match='no datasets'):
        TupleDataset()
    with pytest.raises(ValueError, match=r'\[3, 2\]'):
        TupleDataset(numpy.zeros(3), numpy.zeros(2))
