from minichainer.dataset import Iterator


class _Counter(Iterator):
    def __init__(self):
        self.i = 0
        self.finalized = False

    def __next__(self):
        self.i += 1
        if self.i > 3:
            raise StopIteration
        return [self.i]

    def finalize(self):
        self.finalized = True


def test_iterator_protocol_next_alias_and_context_manager():
    with _Counter() as it:
        assert it.next() == [1]
        assert [b for b in it] == [[2], [3]]
        assert iter(it) is it
    assert it.finalized


def test_base_defaults():
    it = Iterator()
    assert it.finalize() is None
    assert it.serialize(None) is None
