"""MultithreadIterator snapshot keys as written by Chainer 7.8.1."""
import io

from minichainer import iterators, serializers


def test_unshuffled_multithread_iterator_writes_order_key():
    it = iterators.MultithreadIterator([1, 2, 3, 4, 5], 2, shuffle=False, n_threads=1)
    it.next()
    target = {}
    it.serialize(serializers.DictionarySerializer(target))
    it.finalize()
    # Chainer always writes '_order' (None without shuffling); its loader needs the key
    assert '_order' in target and target['_order'][()] is None
    buf = io.BytesIO()
    serializers.save_npz(buf, it)
    buf.seek(0)
    it2 = iterators.MultithreadIterator([1, 2, 3, 4, 5], 2, shuffle=False, n_threads=1)
    serializers.load_npz(buf, it2)
    assert it2.current_position == 2 and list(it2.next()) == [3, 4]
    it2.finalize()


def test_multithread_iterator_loads_snapshot_without_order_key():
    it = iterators.MultithreadIterator([1, 2, 3], 1, shuffle=False, n_threads=1)
    snapshot = {'current_position': 1, 'epoch': 0, 'is_new_epoch': False,
                'previous_epoch_detail': 0.0}
    it.serialize(serializers.NpzDeserializer(snapshot))
    assert list(it.next()) == [2]
    it.finalize()
