"""What the three vision modules share: prepare, ten-crop oversampling, the
forward/extract/predict machinery (on a toy model) and the Pillow handling."""
import collections
import sys

import numpy as np
import pytest

import minichainer
from minichainer import compat
import minichainer.functions as F
import minichainer.links as L
from minichainer.links.model import vision
from minichainer.links.model.vision import googlenet
from minichainer.links.model.vision import resnet
from minichainer.links.model.vision import vgg

MODULES = [(vgg, (103.939, 116.779, 123.68)), (resnet, (103.063, 115.903, 123.152)),
           (googlenet, (104.0, 117.0, 123.0))]


@pytest.fixture
def pil():
    return pytest.importorskip('PIL.Image')


@pytest.mark.parametrize('module, mean', MODULES)
@pytest.mark.parametrize('dtype', [np.float32, np.float16])
def test_prepare_shapes_and_dtypes(module, mean, dtype, pil):
    # Chainer's own cases: HWC, HW, float HWC, 1HW and 3HW inputs, with and without
    # resizing; the output has the configured default dtype
    rs = np.random.RandomState(0)
    x1 = rs.uniform(0, 255, (32, 24, 3)).astype(np.uint8)
    x2 = rs.uniform(0, 255, (32, 24)).astype(np.uint8)
    x3 = rs.uniform(0, 255, (16, 12, 3)).astype(dtype)
    x4 = rs.uniform(0, 255, (1, 16, 12)).astype(dtype)
    x5 = rs.uniform(0, 255, (3, 16, 12)).astype(np.uint8)
    with minichainer.using_config('dtype', dtype):
        for x, size, shape in [(x1, (224, 224), (3, 224, 224)),
                               (x2, (224, 224), (3, 224, 224)),
                               (x3, None, (3, 16, 12)),
                               (x4, (20, 10), (3, 10, 20)),
                               (x5, None, (3, 16, 12))]:
            y = module.prepare(x, size=size)
            assert y.shape == shape and y.dtype == dtype
        y = module.prepare(x1)  # default size
        assert y.shape == (3, 224, 224)


@pytest.mark.parametrize('module, mean', MODULES)
def test_prepare_values(module, mean, pil):
    rs = np.random.RandomState(1)
    rgb = rs.randint(0, 256, (9, 7, 3)).astype(np.uint8)
    mean = np.array(mean, np.float32)
    # resized with PIL's default filter, RGB -> BGR, mean pixel subtracted, CHW
    resized = np.asarray(pil.fromarray(rgb).resize((5, 4)), dtype=np.float32)
    expected = (resized[:, :, ::-1] - mean).transpose(2, 0, 1)
    np.testing.assert_array_equal(module.prepare(rgb, size=(5, 4)), expected)
    # a PIL image (RGBA here) is converted to RGB first
    rgba = np.concatenate([rgb, np.full((9, 7, 1), 77, np.uint8)], axis=2)
    np.testing.assert_array_equal(module.prepare(pil.fromarray(rgba), size=None),
                                  (rgb[:, :, ::-1] - mean).transpose(2, 0, 1))
    # float arrays are cast to uint8 as Chainer does (truncation)
    np.testing.assert_array_equal(module.prepare(rgb + 0.75, size=None),
                                  module.prepare(rgb, size=None))


def test_prepare_rejects_bad_images(pil):
    with pytest.raises(ValueError, match=r'image must be an array of shape.*got shape '
                                         r'\(1, 3, 4, 4\)'):
        vgg.prepare(np.zeros((1, 3, 4, 4), np.uint8))
    with pytest.raises(TypeError, match='PIL image or a numpy.ndarray, got list'):
        resnet.prepare([[0, 1], [2, 3]])


def test_without_pillow(monkeypatch):
    monkeypatch.setitem(sys.modules, 'PIL', None)
    monkeypatch.setitem(sys.modules, 'PIL.Image', None)
    for module in (vgg, resnet, googlenet):
        assert module.available is False
    with pytest.raises(ImportError, match=r'needs Pillow.*minichainer\[examples\]'):
        googlenet.prepare(np.zeros((4, 4, 3), np.uint8))


def test_available_flag(pil):
    assert vgg.available is True and resnet.available is True
    with pytest.raises(AttributeError, match='no attribute'):
        resnet.no_such_name


def _oversample_reference(images, crop_h, crop_w):
    # corners (top-left, top-right, bottom-left, bottom-right), centre, then mirrors
    out = []
    for image in images:
        _, h, w = image.shape
        tops_lefts = [(0, 0), (0, w - crop_w), (h - crop_h, 0), (h - crop_h, w - crop_w),
                      (int(h / 2.0 - crop_h / 2.0), int(w / 2.0 - crop_w / 2.0))]
        crops = [image[:, t:t + crop_h, l:l + crop_w] for t, l in tops_lefts]
        out += crops + [c[:, :, ::-1] for c in crops]
    return np.stack(out)


def test_oversample_images():
    images = np.random.RandomState(2).uniform(size=(2, 3, 9, 8)).astype(np.float32)
    got = vision.oversample_images(images, (4, 5))
    assert got.shape == (20, 3, 4, 5) and got.dtype == np.float32
    np.testing.assert_array_equal(got, _oversample_reference(images, 4, 5))


class _Toy(vision.VisionModel):
    """Spatial mean -> Linear(3, 4) -> softmax, recording the configuration."""

    _mean_bgr = (10.0, 20.0, 30.0)
    _extract_default = 'fc'

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.fc_link = L.Linear(3, 4)
        self.seen = []

    def _record(self, x):
        self.seen.append((minichainer.config.train, minichainer.config.enable_backprop))
        return x

    @property
    def functions(self):
        return collections.OrderedDict([
            ('mean', [self._record, lambda x: F.mean(x, axis=(2, 3))]),
            ('fc', [self.fc_link]),
            ('prob', [F.softmax]),
        ])


def test_predict_averages_the_ten_crops(pil):
    np.random.seed(0)
    model = _Toy()
    rs = np.random.RandomState(3)
    images = [rs.randint(0, 256, (300, 280, 3)).astype(np.uint8),
              rs.randint(0, 256, (200, 260)).astype(np.uint8)]
    x = np.stack([vision.prepare_image(im, (256, 256), _Toy._mean_bgr, 'test')
                  for im in images])
    W, b = model.fc_link.W.array, model.fc_link.b.array

    def probs(batch):
        logits = batch.mean(axis=(2, 3)) @ W.T + b
        e = np.exp(logits - logits.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)

    with minichainer.using_config('train', True):
        y = model.predict(images)
        y_center = model.predict(images, oversample=False)
    assert model.seen == [(False, False), (False, False)]
    assert y.creator is None and y.shape == (2, 4)
    expected = probs(_oversample_reference(x, 224, 224)).reshape(2, 10, 4).sum(1) / 10
    np.testing.assert_allclose(y.array, expected, rtol=1e-5)
    np.testing.assert_allclose(y_center.array, probs(x[:, :, 16:240, 16:240]), rtol=1e-5)


def test_extract_keeps_the_configuration(pil):
    model = _Toy()
    image = np.random.RandomState(4).randint(0, 256, (12, 10, 3)).astype(np.uint8)
    with minichainer.using_config('train', True):
        out = model.extract([image, image], size=(8, 6))
    assert model.seen == [(True, True)]
    assert list(out) == ['fc'] and out['fc'].shape == (2, 4)
    assert out['fc'].creator is not None
    with pytest.raises(TypeError, match="extract\\(\\) got unexpected keyword.*'foo'"):
        model.extract([image], foo=1)


def test_forward_stops_after_the_last_requested_layer():
    model = _Toy()
    x = np.ones((1, 3, 2, 2), np.float32)
    out = model(x, layers=['mean'])
    assert list(out) == ['mean'] and len(model.seen) == 1
    assert model.available_layers == ['mean', 'fc', 'prob']


def test_chainer_alias_imports_the_vision_modules():
    was_installed = compat.is_installed()
    compat.install()
    try:
        import chainer.links.model.vision.resnet as chainer_resnet
        from chainer.links.model.vision import vgg as chainer_vgg
        import chainer.links
        assert chainer_resnet is resnet and chainer_vgg is vgg
        assert chainer.links.GoogLeNet is googlenet.GoogLeNet
    finally:
        if not was_installed:
            compat.uninstall()
