"""Dataset iterators (`chainer.iterators`)."""
from minichainer.iterators.dali_iterator import DaliIterator  # noqa: F401
from minichainer.iterators.multiprocess_iterator import MultiprocessIterator  # noqa: F401
from minichainer.iterators.multithread_iterator import MultithreadIterator  # noqa: F401
from minichainer.iterators.order_samplers import OrderSampler  # noqa: F401
from minichainer.iterators.order_samplers import ShuffleOrderSampler  # noqa: F401
from minichainer.iterators.serial_iterator import SerialIterator  # noqa: F401
