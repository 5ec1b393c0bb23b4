import numpy as np
import pytest

import minichainer
import minichainer.links as L
from minichainer.link_hooks import SpectralNormalization


def test_linear_weight_is_divided_by_largest_singular_value():
    np.random.seed(0)
    link = L.Linear(5, 4)
    np.random.seed(3)
    hook = SpectralNormalization()
    link.add_hook(hook)
    np.random.seed(3)
    assert link.W_u.shape == (4,) and 'W_u' in link._persistent
    x = np.random.randn(3, 5).astype(np.float32)
    for _ in range(30):
        y = link(x)
    sigma = np.linalg.svd(link.W.array, compute_uv=False)[0]
    np.testing.assert_allclose(y.array, x @ (link.W.array / sigma).T + link.b.array,
                               rtol=1e-4, atol=1e-4)
    assert isinstance(link.W, minichainer.Parameter)
    link.delete_hook(hook.name)
    assert not hasattr(link, 'W_u')


def test_u_is_updated_only_in_training():
    link = L.Linear(3, 3)
    link.add_hook(SpectralNormalization())
    u = link.W_u.copy()
    with minichainer.using_config('train', False):
        link(np.ones((1, 3), np.float32))
    np.testing.assert_array_equal(link.W_u, u)
    link(np.ones((1, 3), np.float32))
    assert not np.array_equal(link.W_u, u)


def test_lazy_conv_gamma_and_deconv_axis():
    conv = L.Convolution2D(None, 3, 2)
    conv.add_hook(SpectralNormalization(use_gamma=True))
    assert conv(np.ones((1, 2, 3, 3), np.float32)).shape == (1, 3, 2, 2)
    s = np.linalg.svd(conv.W.array.reshape(3, -1), compute_uv=False)[0]
    np.testing.assert_allclose(conv.gamma.array, s, rtol=1e-5)
    deconv = L.Deconvolution2D(2, 3, 2)
    hook = SpectralNormalization()
    deconv.add_hook(hook)
    assert hook.axis == 1 and deconv.W_u.shape == (3,)


def test_gradient_reaches_the_raw_weight_and_bad_input():
    link = L.Linear(3, 2)
    link.add_hook(SpectralNormalization())
    link.cleargrads()
    y = link(np.random.randn(4, 3).astype(np.float32))
    y.grad = np.ones_like(y.array)
    y.backward()
    assert link.W.grad is not None and np.isfinite(link.W.grad).all()
    with pytest.raises(ValueError, match='n_power_iteration'):
        SpectralNormalization(n_power_iteration=0)
    with pytest.raises(ValueError, match='V'):
        L.Linear(2, 2).add_hook(SpectralNormalization(weight_name='V'))
    with pytest.raises(NotImplementedError):
        with SpectralNormalization():
            pass


def test_weight_standardization():
    from minichainer.link_hooks import WeightStandardization
    conv = L.Convolution2D(None, 3, 2, nobias=True)
    conv.add_hook(WeightStandardization())
    x = np.random.randn(2, 2, 3, 3).astype(np.float32)
    y = conv(x)
    W = conv.W.array.reshape(3, -1)
    Wn = (W - W.mean(1, keepdims=True)) / np.sqrt(W.var(1, keepdims=True) + 1e-5)
    ref = L.Convolution2D(2, 3, 2, nobias=True, initialW=Wn.reshape(3, 2, 2, 2))
    assert y.shape == (2, 3, 2, 2)
    np.testing.assert_allclose(y.array, ref(x).array, rtol=1e-4, atol=1e-5)
    assert isinstance(conv.W, minichainer.Parameter)
    conv.cleargrads()
    y.grad = np.ones_like(y.array)
    y.backward()
    assert conv.W.grad is not None and np.isfinite(conv.W.grad).all()
