"""GroupNormalization accepts (batch, channels) inputs, as Chainer's link does."""
import numpy as np

import minichainer
import minichainer.links as L


def test_two_dimensional_input():
    x = np.random.RandomState(0).uniform(-1, 1, (3, 8)).astype(np.float32)
    link = L.GroupNormalization(2)
    y = link(x)
    assert y.shape == (3, 8)
    g = x.reshape(3, 2, 4)
    expect = (g - g.mean(axis=2, keepdims=True)) / np.sqrt(g.var(axis=2, keepdims=True) + 1e-5)
    np.testing.assert_allclose(y.array, expect.reshape(3, 8), rtol=1e-4, atol=1e-5)
    y.grad = np.ones_like(y.array)
    xv = minichainer.Variable(x)
    out = link(xv)
    out.grad = np.ones_like(out.array)
    out.backward()
    assert xv.grad.shape == (3, 8) and link.gamma.grad.shape == (8,)
