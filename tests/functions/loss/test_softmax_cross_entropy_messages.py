"""What softmax_cross_entropy and Classifier say about labels of the wrong kind."""
import numpy
import pytest

import minichainer
import minichainer.functions as F
import minichainer.links as L
from minichainer.utils import type_check


def test_float_class_labels_name_the_dtype_and_what_was_expected():
    x = numpy.zeros((3, 10), numpy.float32)
    t = numpy.array([1, 2, 3], numpy.float32)
    with pytest.raises(type_check.InvalidType) as info:
        F.softmax_cross_entropy(x, t)
    message = str(info.value)
    assert 'Expect: x.shape == t.shape' in message          # Chainer's check, kept
    assert 'integer class labels' in message and 'soft targets' in message
    assert 'dtype float32' in message and 'shape (3,)' in message
    assert 't.astype(numpy.int32)' in message


def test_classifier_passes_the_message_on():
    model = L.Classifier(L.Linear(4, 10))
    with pytest.raises(type_check.InvalidType, match='got t of dtype float64'):
        model(numpy.zeros((2, 4), numpy.float32), numpy.zeros(2))


def test_soft_targets_of_the_wrong_shape_get_no_label_hint():
    x = numpy.zeros((2, 5), numpy.float32)
    with pytest.raises(type_check.InvalidType) as info:
        F.softmax_cross_entropy(x, numpy.zeros((2, 4), numpy.float32))
    assert "soft targets of x's shape (2, 5)" in str(info.value)
    assert 'astype' not in str(info.value)


def test_valid_labels_and_soft_targets_still_pass():
    x = numpy.random.RandomState(0).randn(4, 3).astype(numpy.float32)
    t = numpy.array([0, 2, 1, 0], numpy.int32)
    soft = numpy.eye(3, dtype=numpy.float32)[t]
    hard = F.softmax_cross_entropy(x, t)
    numpy.testing.assert_allclose(
        F.softmax_cross_entropy(x, soft).array, hard.array, rtol=1e-6)
    with minichainer.using_config('type_check', False):
        F.softmax_cross_entropy(x, t)
