"""The iterators' shared state machine (iterators/_statemachine.py)."""
import numpy
import pytest

from minichainer import iterators
from minichainer.iterators import _statemachine
from minichainer.serializers import npz


class _EveryOther(iterators.OrderSampler):
    """An order sampler whose orders are shorter than the dataset."""

    def __call__(self, current_order, current_position):
        return numpy.arange(0, 10, 2)


@pytest.mark.parametrize('batch_size', [1, 3, 4, 10, 13])
@pytest.mark.parametrize('kind', ['plain', 'shuffle', 'sampler', 'once'])
def test_next_records_the_epoch_detail_the_property_gives(batch_size, kind):
    # SerialIterator.__next__ inlines epoch_detail's formula: the copy equals the property.
    numpy.random.seed(0)
    dataset = list(range(10))
    shuffle = {'plain': False, 'shuffle': True, 'sampler': None, 'once': None}[kind]
    it = iterators.SerialIterator(
        dataset, batch_size, repeat=kind != 'once', shuffle=shuffle,
        order_sampler=_EveryOther() if kind == 'sampler' else None)
    assert it.previous_epoch_detail is None
    for _ in range(12):
        before = it.epoch_detail
        try:
            it.next()
        except StopIteration:
            break
        assert it.previous_epoch_detail == before


def test_serialize_state_is_a_function_of_the_state():
    it = iterators.SerialIterator(list(range(10)), 4, shuffle=False)
    it.next()
    it.next()
    saver = npz.DictionarySerializer()
    it.serialize(saver)
    state, previous = _statemachine.serialize_state(
        npz.NpzDeserializer(saver.target), _statemachine.initial_state(None, 10), -1., 4, 10)
    assert state == _statemachine.IteratorState(8, 0, False, None)
    assert previous == pytest.approx(0.4)
    # Without previous_epoch_detail (an old snapshot) it is guessed from the position.
    del saver.target['previous_epoch_detail']
    state, previous = _statemachine.serialize_state(
        npz.NpzDeserializer(saver.target), _statemachine.initial_state(None, 10), -1., 4, 10)
    assert previous == pytest.approx(0.4)


def test_every_iterator_builds_on_the_state_machine():
    for cls in (iterators.SerialIterator, iterators.MultithreadIterator,
                iterators.MultiprocessIterator):
        assert issubclass(cls, _statemachine.EpochBookkeepingMixin)
