"""utils.cache.cached_property: one value per instance and enable_backprop mode."""
import numpy
import pytest

import minichainer
import minichainer.functions as F
from minichainer.utils import cache


class _Model:
    def __init__(self, x):
        self.x = x
        self.calls = 0

    @cache.cached_property
    def y(self):
        self.calls += 1
        return F.sigmoid(self.x)


def test_computed_once_per_backprop_mode():
    m = _Model(minichainer.Variable(numpy.array([2., 3.], numpy.float32)))
    y1 = m.y
    assert m.y is y1 and m.calls == 1
    assert y1.creator is not None
    with minichainer.no_backprop_mode():
        y2 = m.y
        assert m.y is y2
    assert m.calls == 2 and y2.creator is None
    assert m.y is y1 and m.calls == 2
    numpy.testing.assert_allclose(y1.array, 1 / (1 + numpy.exp(-numpy.array([2., 3.]))),
                                  rtol=1e-6)


def test_instances_do_not_share_and_class_access():
    a, b = _Model(minichainer.Variable(numpy.zeros(1, numpy.float32))), \
        _Model(minichainer.Variable(numpy.ones(1, numpy.float32)))
    assert a.y is not b.y
    assert isinstance(_Model.y, cache.cached_property)
    assert _Model.y.__name__ == 'y' and _Model.y.__doc__ is None


def test_read_only():
    m = _Model(minichainer.Variable(numpy.zeros(1, numpy.float32)))
    with pytest.raises(AttributeError, match="'y'.*readonly"):
        m.y = 1
