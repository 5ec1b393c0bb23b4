import numpy as np
import pytest

import minichainer
from minichainer.dataset import download
import minichainer.links as L
from minichainer.links.model.vision import vgg

from ._reference import check_draws
from ._reference import check_forward
from ._reference import check_keys
from ._reference import FastDraws
from ._reference import REF


def test_vgg19_matches_chainer():
    # runs before the VGG16 fixture exists, so that only one model is in memory
    with FastDraws() as draws:
        model = vgg.VGG19Layers(pretrained_model=None)
    check_draws(draws.calls, 'vgg19')
    check_keys(model, 'vgg19')
    assert model.available_layers == REF['vgg19']['available_layers']
    assert len(model.available_layers) == 25
    check_forward(model, 'vgg19')  # the convolutional part on a 32x32 input


@pytest.fixture(scope='module')
def built():
    """VGG16 built once (~550 MB of float32 weights) under FastDraws."""
    with FastDraws() as draws:
        model = vgg.VGG16Layers(pretrained_model=None)
    yield model, draws.calls
    del model


@pytest.fixture
def model(built):
    return built[0]


def test_vgg16_matches_chainer(built):
    model, calls = built
    assert L.VGG16Layers is vgg.VGG16Layers and L.VGG19Layers is vgg.VGG19Layers
    assert isinstance(model, vgg.VGGLayers)
    check_draws(calls, 'vgg16')
    check_keys(model, 'vgg16')
    assert model.available_layers == REF['vgg16']['available_layers']
    assert len(model.available_layers) == 22
    # one 224x224 image through the whole network (fc6 needs 7x7x512)
    out = check_forward(model, 'vgg16')
    # the fully-connected tail by hand (test mode: dropout is the identity)
    pool5 = out['pool5'].array.reshape(1, -1)
    fc6 = np.maximum(pool5 @ model.fc6.W.array.T + model.fc6.b.array, 0)
    np.testing.assert_allclose(out['fc6'].array, fc6, rtol=1e-4, atol=1e-12)
    fc7 = np.maximum(fc6 @ model.fc7.W.array.T + model.fc7.b.array, 0)
    fc8 = fc7 @ model.fc8.W.array.T + model.fc8.b.array
    np.testing.assert_allclose(out['fc8'].array, fc8, rtol=1e-4, atol=1e-12)
    prob = np.exp(fc8 - fc8.max()) / np.exp(fc8 - fc8.max()).sum()
    np.testing.assert_allclose(out['prob'].array, prob, rtol=1e-5)


def test_extract_and_errors(model, tmp_path, monkeypatch):
    pytest.importorskip('PIL')
    x3 = np.random.RandomState(2).uniform(0, 255, (80, 60)).astype(np.uint8)
    with minichainer.using_config('train', False):
        out = model.extract([x3, x3], layers=['pool1', 'conv2_2'], size=None)
    assert out['pool1'].shape == (2, 64, 40, 30) and out['pool1'].dtype == np.float32
    assert out['conv2_2'].shape == (2, 128, 40, 30)
    with pytest.raises(ValueError, match='test argument is not supported'):
        model.extract([x3], test=True)
    with pytest.raises(ValueError, match='n_layers must be 16 or 19, got 11'):
        vgg.VGGLayers(None, 11)
    monkeypatch.setattr(download, '_dataset_root', str(tmp_path))
    with pytest.raises(FileNotFoundError, match=r'VGG_ILSVRC_19_layers\.npz.*with Chainer'):
        vgg.VGG19Layers()
    with pytest.raises(NotImplementedError, match='VGG16Layers.convert_caffemodel_to_npz'):
        vgg.VGG16Layers.convert_caffemodel_to_npz('a.caffemodel', 'b.npz')


def test_copy_keeps_functions_bound(model):
    copied = model.copy()
    assert copied.conv1_1 is copied.functions['conv1_1'][0]
    assert copied.fc8 is copied.functions['fc8'][0]


def test_prepare_uses_vgg_mean():
    pytest.importorskip('PIL')
    image = np.random.RandomState(4).randint(0, 256, (5, 6)).astype(np.uint8)  # gray
    out = vgg.prepare(image, size=None)
    gray = np.repeat(image[:, :, None].astype(np.float32), 3, axis=2)
    expected = (gray - np.array([103.939, 116.779, 123.68], np.float32)).transpose(2, 0, 1)
    np.testing.assert_array_equal(out, expected)
