import numpy
import pytest

from minichainer.iterators import MultithreadIterator
from minichainer.iterators import SerialIterator
from minichainer.iterators import ShuffleOrderSampler
from minichainer import serializers


def _state(it):
    return (it.epoch, it.epoch_detail, it.previous_epoch_detail, it.is_new_epoch,
            it.current_position)


@pytest.mark.parametrize('repeat', [True, False])
def test_same_batches_and_bookkeeping_as_serial(repeat):
    data = [numpy.full(2, i) for i in range(7)]
    serial = SerialIterator(data, 3, repeat=repeat, order_sampler=ShuffleOrderSampler(
        numpy.random.RandomState(5)))
    with MultithreadIterator(data, 3, repeat=repeat, n_threads=2,
                             order_sampler=ShuffleOrderSampler(
                                 numpy.random.RandomState(5))) as threaded:
        for _ in range(8):
            try:
                expected = serial.next()
            except StopIteration:
                with pytest.raises(StopIteration):
                    threaded.next()
                continue
            got = threaded.next()
            assert isinstance(got, list)
            assert [int(a[0]) for a in got] == [int(a[0]) for a in expected]
            assert _state(threaded) == _state(serial)


def test_serialize_resume(tmp_path):
    it = MultithreadIterator(list(range(5)), 2, shuffle=False, n_threads=2)
    it.next()
    it.next()
    path = str(tmp_path / 'it.npz')
    serializers.save_npz(path, it)
    expected = [it.next() for _ in range(3)]
    it.finalize()
    resumed = MultithreadIterator(list(range(5)), 2, shuffle=False)
    serializers.load_npz(path, resumed)
    assert [resumed.next() for _ in range(3)] == expected
    resumed.finalize()


def test_bad_arguments():
    with pytest.raises(ValueError, match='batch_size'):
        MultithreadIterator([1], 0)
    with pytest.raises(ValueError, match='n_threads'):
        MultithreadIterator([1], 1, n_threads=0)


def test_snapshots_interchange_with_serial_iterator(tmp_path):
    from minichainer.iterators import SerialIterator
    data = list(range(6))
    for make_before, make_after in [
            (lambda: SerialIterator(data, 2), lambda: MultithreadIterator(data, 2)),
            (lambda: MultithreadIterator(data, 2), lambda: SerialIterator(data, 2))]:
        before = make_before()
        seen = before.next() + before.next()
        path = str(tmp_path / 'it.npz')
        serializers.save_npz(path, before)
        after = make_after()
        serializers.load_npz(path, after)
        seen += after.next()
        assert after.is_new_epoch and sorted(seen) == data
