import pickle

import numpy
import pytest

from minichainer import backend
from minichainer.dataset import concat_examples
from minichainer.dataset import ConcatWithAsyncTransfer
from minichainer.dataset import convert
from minichainer.dataset import Converter
from minichainer.dataset import converter
from minichainer.dataset import to_device


def test_tuples_of_arrays_and_scalars():
    batch = [(numpy.array([1, 2], numpy.float32), 1), (numpy.array([3, 4], numpy.float32), 2)]
    x, t = concat_examples(batch)
    numpy.testing.assert_array_equal(x, [[1, 2], [3, 4]])
    assert x.dtype == numpy.float32
    numpy.testing.assert_array_equal(t, [1, 2])


def test_dicts_and_plain_arrays():
    batch = [{'a': numpy.zeros(2), 'b': numpy.int32(i)} for i in range(3)]
    out = concat_examples(batch)
    assert list(out) == ['a', 'b']
    assert out['a'].shape == (3, 2) and out['b'].dtype == numpy.int32
    arrays = concat_examples([numpy.ones((2, 2)) * i for i in range(4)])
    assert arrays.shape == (4, 2, 2) and arrays[3, 0, 0] == 3
    numpy.testing.assert_array_equal(concat_examples([[1, 2], [3, 4]]), [[1, 2], [3, 4]])


def test_padding_scalar_tuple_and_dict():
    y = [(numpy.array([1, 2]), 0), (numpy.array([3]), 1), (numpy.array([]), 2)]
    x, t = concat_examples(y, padding=100)
    numpy.testing.assert_array_equal(x, [[1, 2], [3, 100], [100, 100]])
    numpy.testing.assert_array_equal(t, [0, 1, 2])
    z = [(numpy.array([1, 2]), numpy.array([0])), (numpy.array([3]), numpy.array([])),
         (numpy.array([]), numpy.array([2]))]
    a, b = concat_examples(z, padding=(100, 200))
    numpy.testing.assert_array_equal(a, [[1, 2], [3, 100], [100, 100]])
    numpy.testing.assert_array_equal(b, [[0], [200], [2]])
    d = concat_examples([{'x': numpy.ones((1, 2))}, {'x': numpy.ones((2, 1))}],
                        padding={'x': -1})
    numpy.testing.assert_array_equal(d['x'], [[[1, 1], [-1, -1]], [[1, -1], [1, -1]]])


def test_ragged_without_padding_names_shapes():
    with pytest.raises(ValueError, match=r'\(2,\).*\(3,\)'):
        concat_examples([numpy.zeros(2), numpy.zeros(3)])


def test_empty_batch():
    with pytest.raises(ValueError, match='empty'):
        concat_examples([])


@pytest.mark.parametrize('device', [None, -1, '@numpy', backend.CpuDevice()])
def test_device_argument(device):
    x, = concat_examples([(numpy.zeros(2),), (numpy.ones(2),)], device)
    assert isinstance(x, numpy.ndarray)
    assert to_device(device, x) is x


def test_gpu_device_is_a_clear_error():
    with pytest.raises(RuntimeError, match='GPU'):
        concat_examples([numpy.zeros(2)], 0)


def test_converter_decorator_gives_device_objects():
    seen = []

    @converter()
    def conv(batch, device):
        seen.append(device)
        return batch

    assert isinstance(conv, Converter)
    conv([1], -1)
    conv([1], device='@numpy')
    conv([1], None)
    assert isinstance(seen[0], backend.Device) and seen[0] == seen[1] and seen[2] is None


def test_call_converter_old_and_new_style():
    old_seen = []

    def old_style(batch, device):
        old_seen.append(device)
        return batch

    convert._call_converter(old_style, [1], backend.CpuDevice())
    convert._call_converter(old_style, [1], None)
    assert old_seen == [-1, None]
    assert convert._call_converter(concat_examples, [numpy.zeros(1)], None).shape == (1, 1)


def test_concat_with_async_transfer_on_cpu():
    conv = ConcatWithAsyncTransfer()
    x, t = conv([(numpy.zeros(2), 1), (numpy.ones(2), 2)])
    assert x.shape == (2, 2) and list(t) == [1, 2]
    with pytest.raises(RuntimeError, match='stream'):
        ConcatWithAsyncTransfer(stream=object())


def test_concat_examples_survives_pickling():
    # As Chainer (the converter wraps a function pickled by name).
    restored = pickle.loads(pickle.dumps(concat_examples))
    out = restored([numpy.ones(2, numpy.float32), numpy.zeros(2, numpy.float32)])
    numpy.testing.assert_array_equal(out, [[1, 1], [0, 0]])
