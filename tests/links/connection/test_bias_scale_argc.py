"""Wrong argument counts to Bias/Scale: AssertionError in debug mode (as Chainer)."""
import numpy as np
import pytest

import minichainer
import minichainer.links as L


@pytest.mark.parametrize('make, args', [
    (lambda: L.Scale(1, (2,)), 2),
    (lambda: L.Scale(1, None), 1),
    (lambda: L.Bias(1, (2,)), 2),
    (lambda: L.Bias(1), 1),
])
def test_wrong_argc_asserts_in_debug_mode(make, args):
    link = make()
    xs = [np.ones((3, 2), np.float32), np.ones((2,), np.float32)][:args]
    with minichainer.using_config('debug', True):
        with pytest.raises(AssertionError):
            link(*xs)
    with pytest.raises(TypeError):
        link(*xs)
