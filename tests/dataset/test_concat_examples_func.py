"""chainer.dataset.convert.concat_examples_func, the unwrapped concat_examples."""
import numpy

from minichainer import datasets, iterators
from minichainer.dataset import convert


def test_concat_examples_func_takes_raw_device_specs():
    got = convert.concat_examples_func([(numpy.ones(2, 'f'), 1), (numpy.zeros(2, 'f'), 2)], -1)
    assert got[0].shape == (2, 2) and got[1].tolist() == [1, 2]
    batch = iterators.SerialIterator(
        datasets.TupleDataset(numpy.ones((4, 2), 'f'), numpy.arange(4)), 2,
        shuffle=False).next()
    x, t = convert.concat_examples_func(batch, '@numpy')
    assert x.shape == (2, 2) and t.tolist() == [0, 1]
    padded = convert.concat_examples_func([numpy.ones(1), numpy.ones(2)], padding=0)
    assert padded.tolist() == [[1., 0.], [1., 1.]]
