import numpy
import pytest

import minichainer
import minichainer.functions as F
from minichainer.utils import type_check


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
def test_accuracy(dtype):
    rng = numpy.random.RandomState(0)
    y = rng.uniform(-1, 1, (10, 3)).astype(dtype)
    t = rng.randint(0, 3, 10).astype(numpy.int32)
    acc = F.accuracy(y, t)
    assert isinstance(acc, minichainer.Variable)
    assert acc.shape == () and acc.dtype == dtype
    numpy.testing.assert_allclose(acc.array, (y.argmax(1) == t).mean(), rtol=1e-3)


def test_accuracy_nd_labels():
    rng = numpy.random.RandomState(1)
    y = rng.uniform(-1, 1, (4, 3, 2, 5)).astype(numpy.float32)
    t = rng.randint(0, 3, (4, 2, 5)).astype(numpy.int64)
    expected = (y.argmax(axis=1) == t).mean()
    numpy.testing.assert_allclose(F.accuracy(y, t).array, expected, rtol=1e-6)


def test_accuracy_ignore_label():
    y = numpy.array([[0.9, 0.1], [0.2, 0.8], [0.7, 0.3], [0.6, 0.4]], numpy.float32)
    t = numpy.array([0, 0, -1, 1], numpy.int32)
    # counted samples: 0 (right), 1 (wrong), 3 (wrong)
    numpy.testing.assert_allclose(F.accuracy(y, t, ignore_label=-1).array, 1. / 3, rtol=1e-6)


def test_accuracy_all_ignored_is_zero():
    y = numpy.zeros((2, 3), numpy.float32)
    t = numpy.array([-1, -1], numpy.int32)
    acc = F.accuracy(y, t, ignore_label=-1)
    assert acc.array == 0 and acc.dtype == numpy.float32


def test_accuracy_type_errors():
    with pytest.raises(type_check.InvalidType):
        F.accuracy(numpy.zeros((2, 3), 'f'), numpy.zeros(2, 'f'))
    with pytest.raises(type_check.InvalidType):
        F.accuracy(numpy.zeros((2, 3), 'f'), numpy.zeros(3, 'i'))
    with pytest.raises(type_check.InvalidType):
        F.accuracy(numpy.zeros((2, 3, 2), 'f'), numpy.zeros(2, 'i'))


def test_label_outside_the_classes_warns_and_counts_as_a_miss():
    y = numpy.array([[0.9, 0.1], [0.2, 0.8], [0.7, 0.3]], numpy.float32)
    t = numpy.array([0, 1, 2], numpy.int32)  # 2 is not a class of y
    with pytest.warns(RuntimeWarning, match=r'1 label\(s\).*outside \[0, 2\).*e\.g\. 2'):
        acc = F.accuracy(y, t)
    assert float(acc.array) == pytest.approx(2 / 3)  # as Chainer: a miss


def test_label_outside_the_classes_raises_in_debug_mode():
    y = numpy.zeros((3, 4), numpy.float32)
    with minichainer.using_config('debug', True):
        with pytest.raises(ValueError, match='ignore_label=-1, e.g. -2'):
            F.accuracy(y, numpy.array([0, -1, -2], numpy.int32), ignore_label=-1)


def test_ignore_label_and_valid_labels_do_not_warn():
    import warnings
    y = numpy.zeros((4, 3, 2), numpy.float32)
    t = numpy.array([[0, 2], [-1, 1], [2, -1], [0, 0]], numpy.int32)
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        F.accuracy(y, t, ignore_label=-1)
        F.accuracy(y[:, :, 0], t[:, 1].clip(0, 2))
