import copy
import pickle

import numpy
import pytest

from minichainer.dataset import concat_examples
from minichainer.dataset import ExampleBatch
from minichainer.datasets import DictDataset
from minichainer.datasets import split_dataset
from minichainer.datasets import TupleDataset
from minichainer.iterators import SerialIterator


def _tuple_batch():
    x = numpy.arange(6, dtype=numpy.float32).reshape(3, 2)
    t = numpy.array([7, 8, 9], numpy.int32)
    return ExampleBatch((x, t)), x, t


def test_behaves_as_list_of_examples():
    batch, x, t = _tuple_batch()
    assert len(batch) == 3 and bool(batch)
    first = batch[0]
    numpy.testing.assert_array_equal(first[0], x[0])
    assert first[1] == 7 and type(first[1]) is numpy.int32
    xs, ts = zip(*batch)
    assert list(ts) == [7, 8, 9]
    assert [e[1] for e in batch] == [7, 8, 9]
    assert batch[1:][0][1] == 8
    assert [e[1] for e in reversed(batch)] == [9, 8, 7]
    scalar = ExampleBatch(numpy.array([1, 2, 3]))
    assert scalar == [1, 2, 3] and [1, 2, 3] == scalar and scalar != [1, 2]
    assert scalar + [4] == [1, 2, 3, 4] and [0] + scalar == [0, 1, 2, 3]
    assert repr(scalar) == repr([numpy.int64(1), numpy.int64(2), numpy.int64(3)])
    assert 2 in scalar and scalar.index(3) == 2
    numpy.testing.assert_array_equal(numpy.asarray(scalar), [1, 2, 3])


def test_concat_uses_stacked_arrays_then_copies():
    batch, x, t = _tuple_batch()
    xs, ts = concat_examples(batch)
    numpy.testing.assert_array_equal(xs, x)
    xs2, _ = concat_examples(batch)
    numpy.testing.assert_array_equal(xs2, x)
    assert not numpy.shares_memory(xs, xs2)


def test_mutation_falls_back_to_examples():
    batch, x, t = _tuple_batch()
    batch.append((numpy.zeros(2, numpy.float32), numpy.int32(0)))
    xs, ts = concat_examples(batch)
    assert xs.shape == (4, 2) and list(ts) == [7, 8, 9, 0]
    batch[0] = (numpy.ones(2, numpy.float32), numpy.int32(5))
    assert list(concat_examples(batch)[1]) == [5, 8, 9, 0]
    del batch[0]
    assert len(batch) == 3


def test_dict_examples_mutation_is_seen_by_concat():
    ds = DictDataset(a=numpy.arange(4), b=numpy.arange(4) * 10)
    batch = SerialIterator(ds, 2, shuffle=False).next()
    assert isinstance(batch, ExampleBatch)
    assert batch[1] == {'a': 1, 'b': 10}
    batch[0]['a'] = numpy.int64(42)
    out = concat_examples(batch)
    assert list(out['a']) == [42, 1] and list(out['b']) == [0, 10]


def test_copy_and_pickle_give_plain_lists():
    scalar = ExampleBatch(numpy.array([1, 2]))
    assert type(copy.copy(scalar)) is list and copy.copy(scalar) == [1, 2]
    assert pickle.loads(pickle.dumps(scalar)) == [1, 2]
    with pytest.raises(TypeError):
        hash(scalar)


def test_subdataset_and_ndarray_datasets_are_gathered():
    x = numpy.arange(10) * 2
    ds = TupleDataset(x, x + 1)
    first, second = split_dataset(ds, 4, order=numpy.arange(10)[::-1])
    batch = SerialIterator(second, 3, shuffle=False).next()
    assert isinstance(batch, ExampleBatch)
    assert [e[0] for e in batch] == [second[i][0] for i in range(3)]
    plain = SerialIterator(x, 3, shuffle=False).next()
    assert isinstance(plain, ExampleBatch) and plain == [0, 2, 4]
    numpy.testing.assert_array_equal(concat_examples(plain), [0, 2, 4])
    mixed = TupleDataset(x, list(range(10)))  # a list member: Chainer's plain list
    assert type(SerialIterator(mixed, 2, shuffle=False).next()) is list


def test_batch_protocol_layouts_and_stacked_arrays():
    from minichainer.dataset import BatchLayout
    batch, x, t = _tuple_batch()
    assert batch.layout is BatchLayout.TUPLE
    xs, ts = batch.stacked_arrays()
    assert xs is x and ts is t  # the first call hands out the gathered arrays
    assert not numpy.shares_memory(batch.stacked_arrays()[0], x)
    assert ExampleBatch({'a': x}).layout is BatchLayout.DICT
    assert ExampleBatch(x).layout is BatchLayout.ARRAY
    batch.append(batch[0])
    assert batch.stacked_arrays() is None  # modified: convert example by example


def test_user_dataset_takes_part_in_the_batch_protocol():
    from minichainer.dataset import gather_batch

    class Rows:
        def __init__(self):
            self.data = numpy.arange(12, dtype=numpy.float32).reshape(6, 2)
            self.calls = 0

        def __len__(self):
            return len(self.data)

        def __getitem__(self, i):
            return self.data[i]

        def get_example_batch(self, indices):
            self.calls += 1
            return ExampleBatch(self.data[indices])

    ds = Rows()
    batch = SerialIterator(ds, 4, shuffle=False).next()
    assert isinstance(batch, ExampleBatch) and ds.calls == 1
    numpy.testing.assert_array_equal(concat_examples(batch), ds.data[:4])
    # a dataset that declines (None) gets Chainer's list of examples
    ds.get_example_batch = lambda indices: None
    plain = gather_batch(ds, numpy.array([1, 2]))
    assert type(plain) is list and len(plain) == 2
