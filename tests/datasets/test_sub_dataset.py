import numpy
import pytest

from minichainer import datasets


def test_sub_dataset_interval_order_and_negative_index():
    base = list(range(10))
    sub = datasets.SubDataset(base, 2, 6)
    assert len(sub) == 4 and sub[0] == 2 and sub[-1] == 5 and sub[1:3] == [3, 4]
    with pytest.raises(IndexError):
        sub[4]
    with pytest.raises(IndexError):
        sub[-5]
    order = numpy.arange(10)[::-1]
    sub = datasets.SubDataset(base, 2, 6, order)
    assert list(sub[:]) == [7, 6, 5, 4]
    with pytest.raises(ValueError, match='overruns'):
        datasets.SubDataset(base, 5, 11)
    with pytest.raises(ValueError, match='len\\(order\\) = 3'):
        datasets.SubDataset(base, 0, 2, [0, 1, 2])


def test_split_dataset():
    a, b = datasets.split_dataset(list(range(5)), 2)
    assert list(a[:]) == [0, 1] and list(b[:]) == [2, 3, 4]
    a, b = datasets.split_dataset(list(range(5)), 2, [4, 3, 2, 1, 0])
    assert list(a[:]) == [4, 3] and list(b[:]) == [2, 1, 0]
    with pytest.raises(ValueError):
        datasets.split_dataset(list(range(5)), -1)
    with pytest.raises(ValueError, match='exceeds'):
        datasets.split_dataset(list(range(5)), 6)
    a, b = datasets.split_dataset(list(range(5)), 5)  # as Chainer: the tail may be empty
    assert list(a[:]) == [0, 1, 2, 3, 4] and len(b) == 0


def test_split_dataset_random_is_seeded_and_leaves_global_rng():
    numpy.random.seed(0)
    state = numpy.random.get_state()[1].copy()
    a, b = datasets.split_dataset_random(list(range(10)), 3, seed=7)
    a2, _ = datasets.split_dataset_random(list(range(10)), 3, seed=7)
    numpy.testing.assert_array_equal(numpy.random.get_state()[1], state)
    assert list(a[:]) == list(a2[:])
    assert list(a[:]) == list(numpy.random.RandomState(7).permutation(10)[:3])
    assert sorted(list(a[:]) + list(b[:])) == list(range(10))


def test_split_dataset_n_and_random():
    parts = datasets.split_dataset_n(list(range(10)), 3)
    assert [list(p[:]) for p in parts] == [[0, 1, 2], [3, 4, 5], [6, 7, 8]]
    parts = datasets.split_dataset_n_random(list(range(10)), 3, seed=1)
    flat = [v for p in parts for v in p[:]]
    assert len(flat) == 9 and len(set(flat)) == 9
    assert flat == list(numpy.random.RandomState(1).permutation(10)[:9])


def test_cross_validation():
    splits = datasets.get_cross_validation_datasets(list(range(5)), 3)
    assert len(splits) == 3
    tests = [sorted(test[:]) for _, test in splits]
    assert sorted(v for t in tests for v in t) == list(range(5))
    for train, test in splits:
        assert sorted(list(train[:]) + list(test[:])) == list(range(5))
    assert sorted(len(t) for t in tests) == [1, 2, 2]
    random_splits = datasets.get_cross_validation_datasets_random(list(range(6)), 2, seed=0)
    assert all(len(train) == 3 and len(test) == 3 for train, test in random_splits)


def test_transform_and_concatenated():
    t = datasets.TransformDataset([1, 2, 3], lambda v: v * 10)
    assert len(t) == 3 and t[1] == 20 and t[::2] == [10, 30]
    with pytest.raises(TypeError):
        datasets.TransformDataset([1], 3)
    c = datasets.ConcatenatedDataset([0, 1], [], [2, 3, 4])
    assert len(c) == 5 and c[:] == [0, 1, 2, 3, 4] and c[4] == 4
    with pytest.raises(IndexError):
        c[5]
    with pytest.raises(IndexError):
        c.get_example(-1)
