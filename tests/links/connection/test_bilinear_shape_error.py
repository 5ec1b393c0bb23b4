"""Bilinear: a wrongly shaped initial array raises AssertionError (as Chainer) and ValueError."""
import numpy as np
import pytest

import minichainer.links as L


@pytest.mark.parametrize('exc', [AssertionError, ValueError])
def test_bad_initial_shapes(exc):
    W = np.zeros((2, 3, 4), np.float32)
    V1, V2, b = np.zeros((2, 4), 'f'), np.zeros((3, 4), 'f'), np.zeros((4,), 'f')
    with pytest.raises(exc):
        L.Bilinear(2, 3, 4, True, np.zeros((3, 3, 4), 'f'))
    with pytest.raises(exc):
        L.Bilinear(2, 3, 4, False, W, (np.zeros((3, 4), 'f'), V2, b))
    with pytest.raises(exc):
        L.Bilinear(2, 3, 4, False, W, (V1, V2, np.zeros((5,), 'f')))
