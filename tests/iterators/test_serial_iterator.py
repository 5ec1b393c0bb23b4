import numpy
import pytest
from hypothesis import given, settings, strategies as st

from minichainer.dataset import concat_examples
from minichainer.dataset import ExampleBatch
from minichainer.datasets import TupleDataset
from minichainer.iterators import OrderSampler
from minichainer.iterators import SerialIterator
from minichainer.iterators import ShuffleOrderSampler
from minichainer import serializers

# (epoch, epoch_detail, previous_epoch_detail, is_new_epoch, batch length) after each
# next(), worked out by hand from Chainer 7's semantics. None: StopIteration.
TABLES = {
    (5, True): [(0, 0.4, 0.0, False, 2), (0, 0.8, 0.4, False, 2),
                (1, 1.2, 0.8, True, 2), (1, 1.6, 1.2, False, 2),
                (2, 2.0, 1.6, True, 2), (2, 2.4, 2.0, False, 2)],
    (5, False): [(0, 0.4, 0.0, False, 2), (0, 0.8, 0.4, False, 2),
                 (1, 1.0, 0.8, True, 1), None, None],
    (6, True): [(0, 1 / 3, 0.0, False, 2), (0, 2 / 3, 1 / 3, False, 2),
                (1, 1.0, 2 / 3, True, 2), (1, 4 / 3, 1.0, False, 2),
                (1, 5 / 3, 4 / 3, False, 2), (2, 2.0, 5 / 3, True, 2)],
    (6, False): [(0, 1 / 3, 0.0, False, 2), (0, 2 / 3, 1 / 3, False, 2),
                 (1, 1.0, 2 / 3, True, 2), None],
}


@pytest.mark.parametrize('size,repeat', sorted(TABLES))
@pytest.mark.parametrize('shuffle', [False, True])
def test_epoch_bookkeeping_table(size, repeat, shuffle):
    it = SerialIterator(list(range(size)), 2, repeat=repeat, shuffle=shuffle)
    assert it.epoch == 0 and it.epoch_detail == 0.0
    assert it.previous_epoch_detail is None and it.is_new_epoch is False
    seen = []
    for row in TABLES[(size, repeat)]:
        if row is None:
            with pytest.raises(StopIteration):
                it.next()
            continue
        batch = it.next()
        epoch, detail, prev, new, length = row
        assert (it.epoch, it.is_new_epoch, len(batch)) == (epoch, new, length)
        assert it.epoch_detail == pytest.approx(detail)
        assert it.previous_epoch_detail == pytest.approx(prev)
        seen.extend(batch)
    first_epoch = seen[:size]
    assert sorted(first_epoch) == list(range(size))
    if not shuffle:
        assert seen == [i % size for i in range(len(seen))]


def test_unshuffled_batches_wrap_around():
    it = SerialIterator(numpy.arange(5), 2, shuffle=False)
    batches = [list(it.next()) for _ in range(3)]
    assert batches == [[0, 1], [2, 3], [4, 0]]


def test_shuffle_uses_global_numpy_permutation():
    numpy.random.seed(3)
    first = numpy.random.permutation(5)
    second = numpy.random.permutation(5)
    numpy.random.seed(3)
    it = SerialIterator(list(range(5)), 5)  # shuffle=None means shuffle
    assert list(it.next()) == list(first)
    assert list(it.next()) == list(second)


def test_repeat_false_iteration_protocol_and_reset():
    it = SerialIterator(list(range(5)), 2, repeat=False, shuffle=False)
    assert [list(b) for b in it] == [[0, 1], [2, 3], [4]]
    it.reset()
    assert it.epoch == 0 and it.previous_epoch_detail is None
    assert list(it.next()) == [0, 1]


def test_order_sampler():
    class Reverse(OrderSampler):
        def __call__(self, current_order, current_position):
            return numpy.arange(len(current_order))[::-1]

    it = SerialIterator(list(range(4)), 3, order_sampler=Reverse())
    assert list(it.next()) == [3, 2, 1]
    assert list(it.next()) == [0, 3, 2]
    with pytest.raises(ValueError):
        SerialIterator(list(range(4)), 3, shuffle=True, order_sampler=Reverse())


def test_order_sampler_with_wrong_length():
    it = SerialIterator(list(range(4)), 3, order_sampler=lambda order, pos: numpy.arange(3)
                        if pos else numpy.arange(4))
    it.next()
    with pytest.raises(ValueError, match='length'):
        it.next()


def test_shuffle_order_sampler_random_state():
    a = SerialIterator(list(range(7)), 3, order_sampler=ShuffleOrderSampler(
        numpy.random.RandomState(1)))
    b = SerialIterator(list(range(7)), 3, order_sampler=ShuffleOrderSampler(
        numpy.random.RandomState(1)))
    for _ in range(6):
        assert list(a.next()) == list(b.next())


@pytest.mark.parametrize('bad', [0, -1, 2.0, True, None, '3'])
def test_bad_batch_size(bad):
    with pytest.raises(ValueError, match='batch_size must be a positive int'):
        SerialIterator(list(range(3)), bad)


def test_empty_dataset():
    with pytest.raises(ValueError, match='empty'):
        SerialIterator([], 1)


def test_tuple_dataset_gives_fast_batch_equal_to_chainer_list():
    x = numpy.arange(20, dtype=numpy.float32).reshape(10, 2)
    t = numpy.arange(10, dtype=numpy.int32)
    dataset = TupleDataset(x, t)
    it = SerialIterator(dataset, 4, shuffle=False)
    it.next()
    it.next()
    batch = it.next()  # wraps: 8, 9, 0, 1
    assert isinstance(batch, ExampleBatch)
    expected = [dataset[i] for i in [8, 9, 0, 1]]
    assert len(batch) == 4
    for got, want in zip(batch, expected):
        numpy.testing.assert_array_equal(got[0], want[0])
        assert got[1] == want[1] and type(got[1]) is type(want[1])
    xs, ts = concat_examples(batch)
    numpy.testing.assert_array_equal(xs, x[[8, 9, 0, 1]])
    assert ts.dtype == numpy.int32 and list(ts) == [8, 9, 0, 1]


def test_serialize_resume_mid_epoch_equals_uninterrupted(tmp_path):
    x = numpy.arange(14, dtype=numpy.float32).reshape(7, 2)
    dataset = TupleDataset(x, numpy.arange(7, dtype=numpy.int32))

    numpy.random.seed(0)
    it = SerialIterator(dataset, 3)
    for _ in range(4):  # mid second epoch
        it.next()
    path = str(tmp_path / 'it.npz')
    serializers.save_npz(path, it)
    rng_state = numpy.random.get_state()
    expected = []
    for _ in range(6):
        expected.append((concat_examples(it.next())[1].tolist(), it.epoch,
                         it.epoch_detail, it.previous_epoch_detail, it.is_new_epoch))

    numpy.random.seed(123)
    resumed = SerialIterator(dataset, 3)
    serializers.load_npz(path, resumed)
    assert resumed.previous_epoch_detail == pytest.approx(9 / 7)
    numpy.random.set_state(rng_state)
    got = []
    for _ in range(6):
        got.append((concat_examples(resumed.next())[1].tolist(), resumed.epoch,
                    resumed.epoch_detail, resumed.previous_epoch_detail,
                    resumed.is_new_epoch))
    assert got == expected


class _DictSerializer:
    """Minimal saving serializer storing values in a flat dict."""

    def __init__(self, target, prefix=''):
        self.target = target
        self.prefix = prefix

    def __getitem__(self, key):
        return _DictSerializer(self.target, self.prefix + key + '/')

    def __call__(self, key, value):
        self.target[self.prefix + key] = numpy.array(value) if isinstance(
            value, numpy.ndarray) else value
        return value


class _DictDeserializer(_DictSerializer):
    def __call__(self, key, value):
        loaded = self.target[self.prefix + key]
        if isinstance(value, numpy.ndarray):
            numpy.copyto(value, loaded)
            return value
        return loaded


def test_serialize_keys_and_none_previous_epoch_detail():
    it = SerialIterator(list(range(5)), 2)
    store = {}
    it.serialize(_DictSerializer(store))
    assert set(store) == {'current_position', 'epoch', 'is_new_epoch', 'order',
                          'previous_epoch_detail'}
    assert store['previous_epoch_detail'] == -1
    unshuffled = SerialIterator(list(range(5)), 2, shuffle=False)
    store2 = {}
    unshuffled.serialize(_DictSerializer(store2))
    assert 'order' not in store2


def test_deserialize_old_snapshot_guesses_previous_epoch_detail():
    it = SerialIterator(list(range(5)), 2, shuffle=False)
    store = {'current_position': 1, 'epoch': 1, 'is_new_epoch': True}

    class Old(_DictDeserializer):
        def __call__(self, key, value):
            if key not in self.target:
                raise KeyError(key)
            return super().__call__(key, value)

    it.serialize(Old(store))
    assert it.epoch == 1 and it.current_position == 1 and it.is_new_epoch
    assert it.previous_epoch_detail == pytest.approx(0.8)


@settings(max_examples=40, deadline=None)
@given(n=st.integers(1, 25), batch_size=st.integers(1, 9), shuffle=st.booleans(),
       use_array=st.booleans())
def test_every_example_once_per_epoch(n, batch_size, shuffle, use_array):
    dataset = numpy.arange(n) if use_array else list(range(n))
    it = SerialIterator(dataset, batch_size, shuffle=shuffle)
    stream = []
    n_epochs = 3
    while len(stream) < n * n_epochs:
        stream.extend(int(v) for v in it.next())
    for e in range(n_epochs):
        assert sorted(stream[e * n:(e + 1) * n]) == list(range(n))
    once = SerialIterator(dataset, batch_size, repeat=False, shuffle=shuffle)
    assert sorted(int(v) for b in once for v in b) == list(range(n))


def test_dali_iterator_is_a_clear_error():
    from minichainer.iterators import DaliIterator
    with pytest.raises(RuntimeError, match='GPU'):
        DaliIterator(None)
