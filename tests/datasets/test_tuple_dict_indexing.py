"""Index lists on TupleDataset/DictDataset index every underlying dataset (Chainer 7)."""
import numpy

from minichainer import datasets


def test_tuple_dataset_index_list_gives_tuple_of_batches():
    x = numpy.arange(12, dtype=numpy.float32).reshape(6, 2)
    y = numpy.arange(6, dtype=numpy.int32)
    td = datasets.TupleDataset(x, y)
    bx, by = td[[0, 2]]
    numpy.testing.assert_array_equal(bx, x[[0, 2]])
    numpy.testing.assert_array_equal(by, y[[0, 2]])
    got = td[numpy.array([1, 3])]
    assert isinstance(got, tuple) and got[0].shape == (2, 2)
    assert isinstance(td[1:3], list) and len(td[1:3]) == 2  # slices still give examples


def test_dict_dataset_index_list_gives_dict_of_batches():
    x = numpy.arange(6, dtype=numpy.float32)
    dd = datasets.DictDataset(a=x, b=x * 2)
    got = dd[[0, 4]]
    assert isinstance(got, dict)
    numpy.testing.assert_array_equal(got['b'], [0., 8.])
    assert isinstance(dd[0:2], list)
