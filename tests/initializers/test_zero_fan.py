"""Weights with a zero-sized dimension: a clear error naming the shape, not a
ZeroDivisionError inside the initializer."""
import numpy as np
import pytest

import minichainer.links as L
from minichainer import initializers


@pytest.mark.parametrize('cls,shape,what', [
    (initializers.LeCunNormal, (3, 0), 'fan_in'),
    (initializers.LeCunUniform, (3, 0), 'fan_in'),
    (initializers.HeUniform, (4, 3, 0, 0), 'fan_in'),
    (initializers.HeNormal, (4, 3, 0, 0), 'fan_in'),
    (initializers.GlorotNormal, (0, 0), 'fan_in + fan_out'),
    (initializers.GlorotUniform, (2, 2, 0), 'fan_in + fan_out'),
])
def test_zero_fan_names_the_shape(cls, shape, what):
    with pytest.raises(ValueError) as info:
        cls()(np.empty(shape, np.float32))
    message = str(info.value)
    assert cls.__name__ in message and str(shape) in message
    assert 'its {} is 0'.format(what) in message


def test_he_normal_fan_out():
    with pytest.raises(ValueError, match=r'HeNormal.*\(0, 3\).*fan_out is 0'):
        initializers.HeNormal(fan_option='fan_out')(np.empty((0, 3), np.float32))


def test_links_with_a_zero_sized_input_or_kernel():
    with pytest.raises(ValueError, match=r'shape \(3, 0\).*in_size=0 or ksize=0'):
        L.Linear(0, 3)
    # The convolution link names its own argument before any initializer runs.
    with pytest.raises(ValueError, match=r'Convolution2D: ksize must be positive, got 0'):
        L.Convolution2D(3, 4, ksize=0)


def test_zero_sized_outputs_still_initialize():
    # Only a zero fan that would be divided by is an error.
    assert L.Linear(3, 0).W.shape == (0, 3)
    a = np.empty((3, 0), np.float32)
    initializers.GlorotUniform()(a)  # fan_in + fan_out = 3
