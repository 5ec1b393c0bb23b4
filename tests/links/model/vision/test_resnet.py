import warnings

import numpy as np
import pytest

import minichainer
from minichainer import gradient_check
from minichainer.dataset import download
import minichainer.links as L
from minichainer.links.model.vision import resnet
from minichainer import serializers

from ._reference import check_draws
from ._reference import check_forward
from ._reference import check_keys
from ._reference import check_summary
from ._reference import FastDraws
from ._reference import model_input
from ._reference import REF


@pytest.fixture(scope='module')
def built():
    """ResNet50 built once under FastDraws, with the draws it made."""
    with FastDraws() as draws:
        model = resnet.ResNet50Layers(pretrained_model=None)
    return model, draws.calls


@pytest.fixture
def model(built):
    return built[0]


def test_registered_names():
    assert L.ResNet50Layers is resnet.ResNet50Layers
    assert L.ResNet101Layers is resnet.ResNet101Layers
    assert L.ResNet152Layers is resnet.ResNet152Layers
    assert issubclass(resnet.ResNet152Layers, resnet.ResNetLayers)
    assert issubclass(resnet.ResNetLayers, minichainer.Chain)


def test_resnet50_matches_chainer(built):
    model, calls = built
    check_draws(calls, 'resnet50')
    check_keys(model, 'resnet50')
    assert model.available_layers == REF['resnet50']['available_layers']
    assert len(model.available_layers) == 9
    check_forward(model, 'resnet50')


def test_train_mode_uses_batch_statistics_as_chainer(model):
    # train mode: batch statistics, and the running mean is updated (on a copy)
    model = model.copy('copy')
    x = model_input((2, 3, 32, 32))
    with minichainer.using_config('train', True):
        y = model(x, layers=['res3'])['res3']
    ref = REF['resnet50']
    check_summary(y.array, ref['train_res3'], 'train res3')
    np.testing.assert_allclose(model.bn1.avg_mean[:4], ref['train_bn1_avg_mean_head'],
                               rtol=1e-4, atol=1e-6)


def test_seeded_initialization_matches_chainer():
    # the real generator: same values as a Chainer 7 program seeded the same way
    np.random.seed(0)
    model = resnet.ResNet50Layers(pretrained_model=None)
    ref = REF['resnet50']
    assert np.random.uniform() == pytest.approx(ref['seed0_next_uniform'], rel=1e-12)
    params = dict(model.namedparams())
    for name, head in ref['seed0_heads'].items():
        np.testing.assert_allclose(params[name].array.ravel()[:4], head, rtol=1e-6,
                                   err_msg=name)
    check_forward(model, 'resnet50', key='seed0_forward')


@pytest.mark.parametrize('name, make', [
    ('resnet50_fb', lambda: resnet.ResNet50Layers(pretrained_model=None,
                                                  downsample_fb=True)),
    ('resnet101', lambda: resnet.ResNet101Layers(pretrained_model=None)),
    ('resnet152', lambda: resnet.ResNet152Layers(pretrained_model=None)),
])
def test_variants_match_chainer(name, make):
    with FastDraws() as draws:
        model = make()
    check_draws(draws.calls, name)
    check_keys(model, name)
    assert model.available_layers == REF[name]['available_layers']
    check_forward(model, name)


def test_downsample_fb_moves_the_stride(model):
    msra = model.res3.a
    assert msra.conv1.stride == (2, 2) and msra.conv2.stride == (1, 1)
    fb = resnet.BottleneckA(4, 2, 8, stride=2, downsample_fb=True)
    assert fb.conv1.stride == (1, 1) and fb.conv2.stride == (2, 2)
    assert fb.conv4.stride == (2, 2)


def test_forward_returns_only_requested_layers(model):
    x = model_input((1, 3, 32, 32))
    with minichainer.using_config('train', False):
        out = model(x, layers=('pool1', 'res2'))
        default = model(x)
    assert sorted(out) == ['pool1', 'res2']
    assert out['pool1'].shape == (1, 64, 8, 8)
    assert out['res2'].shape == (1, 256, 8, 8)
    assert list(default) == ['prob']
    np.testing.assert_allclose(default['prob'].array.sum(), 1, rtol=1e-5)


def test_forward_backprop_reaches_the_input(model):
    x = minichainer.Variable(model_input((1, 3, 32, 32)))
    with minichainer.using_config('train', False):
        y = model(x, layers=['pool5'])['pool5']
    minichainer.functions.sum(y).backward()
    assert x.grad is not None and x.grad.shape == x.shape and np.abs(x.grad).sum() > 0
    model.cleargrads()


def test_forward_argument_errors(model):
    x = model_input((1, 3, 32, 32))
    with pytest.raises(ValueError, match='test argument is not supported'):
        model(x, test=True)
    with pytest.raises(TypeError, match="unexpected keyword argument.*'foo'"):
        model(x, foo=1)
    with pytest.raises(TypeError, match='list of layer names'):
        model(x, layers='pool5')
    with pytest.raises(ValueError, match=r"unknown layer.*'fc7'.*available layers"):
        model(x, layers=['pool5', 'fc7'])
    with pytest.raises(ValueError, match='n_layers must be 50, 101 or 152, got 34'):
        resnet.ResNetLayers(None, 34)


def test_extract_prepares_and_forwards(model):
    pytest.importorskip('PIL')
    rs = np.random.RandomState(2)
    x1 = rs.uniform(0, 255, (70, 50, 3)).astype(np.uint8)
    x2 = rs.uniform(0, 255, (70, 50)).astype(np.uint8)
    with minichainer.using_config('train', False):
        out = model.extract([x1, x2], layers=['res3', 'pool5'], size=(48, 64))
        direct = model(np.stack([resnet.prepare(x, size=(48, 64)) for x in (x1, x2)]),
                       layers=['res3', 'pool5'])
        default = model.extract([x1], size=(32, 32))
    assert out['res3'].shape == (2, 512, 8, 6) and out['res3'].dtype == np.float32
    assert out['pool5'].shape == (2, 2048)
    for key in out:
        np.testing.assert_allclose(out[key].array, direct[key].array, rtol=1e-5, atol=1e-5)
    assert list(default) == ['pool5']
    # size=None keeps the image size (Chainer's own test case)
    x3 = rs.uniform(0, 255, (80, 60)).astype(np.uint8)
    with minichainer.using_config('train', False):
        out = model.extract([x3], layers=['res2'], size=None)
    assert out['res2'].shape == (1, 256, 20, 15)
    with pytest.raises(ValueError, match='volatile argument is not supported'):
        model.extract([x3], volatile=True)


def test_predict_center_crop_is_test_mode_without_graph(model):
    pytest.importorskip('PIL')
    image = np.random.RandomState(3).uniform(0, 255, (260, 250, 3)).astype(np.uint8)
    with minichainer.using_config('train', True):
        y = model.predict([image], oversample=False)
    assert y.shape == (1, 1000) and y.dtype == np.float32
    assert y.creator is None
    x = resnet.prepare(image, size=(256, 256))[None, :, 16:240, 16:240]
    with minichainer.using_config('train', False):
        expected = model(x)['prob'].array
    np.testing.assert_allclose(y.array, expected, rtol=1e-5, atol=1e-7)


def test_copy_keeps_functions_and_blocks_bound(model):
    copied = model.copy()
    assert copied.conv1 is copied.functions['conv1'][0]
    assert copied.res2.a is getattr(copied.res2, copied.res2._forward[0])
    assert copied.res4._forward == ['a', 'b1', 'b2', 'b3', 'b4', 'b5']


def test_npz_round_trip_and_auto(model, tmp_path, monkeypatch):
    monkeypatch.setattr(download, '_dataset_root', str(tmp_path))
    # 'auto' without Chainer's converted file: a clear error naming it
    with pytest.raises(FileNotFoundError, match=r'ResNet-50-model\.npz.*cannot convert '
                                                r'Caffe models'):
        resnet.ResNet50Layers()
    with pytest.raises(NotImplementedError, match='cannot read Caffe models'):
        resnet.ResNet50Layers.convert_caffemodel_to_npz('a.caffemodel', 'b.npz')
    # Chainer's cache location and file name
    path = tmp_path / 'pfnet' / 'chainer' / 'models' / 'ResNet-50-model.npz'
    serializers.save_npz(str(path), model, compression=False)
    loaded = resnet.ResNet50Layers()  # 'auto': zero initialization, then the file
    explicit = resnet.ResNet50Layers(pretrained_model=str(path))
    expected = _arrays(model)
    for other in (loaded, explicit):
        got = _arrays(other)
        assert sorted(got) == sorted(expected)
        for key in expected:
            np.testing.assert_array_equal(got[key], expected[key], err_msg=key)


def _arrays(link):
    target = {}
    serializers.DictionarySerializer(target).save(link)
    return target


def test_building_block_arguments():
    with pytest.warns(DeprecationWarning, match='n_layer is deprecated'):
        block = resnet.BuildingBlock(in_channels=4, mid_channels=2, out_channels=8,
                                     stride=1, n_layer=3)
    assert block._forward == ['a', 'b1', 'b2']
    with pytest.raises(TypeError, match="unexpected keyword argument.*'depth'"):
        resnet.BuildingBlock(2, 4, 2, 8, 1, depth=3)
    with pytest.raises(TypeError, match='n_layers must be an int, got None'):
        resnet.BuildingBlock(in_channels=4, mid_channels=2, out_channels=8, stride=1)
    with pytest.raises(ValueError, match='n_layers must be at least 1, got 0'):
        resnet.BuildingBlock(0, 4, 2, 8, 1)
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        resnet.BuildingBlock(1, 4, 2, 8, 1)


def _bottleneck_reference(link, x, identity):
    # NumPy reference: conv (im2col by hand) + train-mode batch normalization + ReLU
    def conv(conv_link, h):
        w = conv_link.W.array
        sy, sx = conv_link.stride
        ph, pw = conv_link.pad
        n, c, height, width = h.shape
        out_c, _, kh, kw = w.shape
        hp = np.pad(h, ((0, 0), (0, 0), (ph, ph), (pw, pw)))
        oh, ow = (height + 2 * ph - kh) // sy + 1, (width + 2 * pw - kw) // sx + 1
        y = np.zeros((n, out_c, oh, ow))
        for i in range(kh):
            for j in range(kw):
                patch = hp[:, :, i:i + sy * oh:sy, j:j + sx * ow:sx]
                y += np.einsum('nchw,oc->nohw', patch, w[:, :, i, j])
        return y

    def bn(bn_link, h):
        mean = h.mean(axis=(0, 2, 3), keepdims=True)
        var = h.var(axis=(0, 2, 3), keepdims=True)
        g = bn_link.gamma.array[None, :, None, None]
        b = bn_link.beta.array[None, :, None, None]
        return g * (h - mean) / np.sqrt(var + bn_link.eps) + b

    relu = lambda a: np.maximum(a, 0)  # noqa: E731
    h = relu(bn(link.bn1, conv(link.conv1, x)))
    h = relu(bn(link.bn2, conv(link.conv2, h)))
    h = bn(link.bn3, conv(link.conv3, h))
    shortcut = x if identity else bn(link.bn4, conv(link.conv4, x))
    return relu(h + shortcut)


@pytest.mark.parametrize('make, x_shape, identity', [
    (lambda: resnet.BottleneckA(3, 2, 4, stride=2), (2, 3, 5, 4), False),
    (lambda: resnet.BottleneckA(3, 2, 4, stride=2, downsample_fb=True), (2, 3, 5, 4), False),
    (lambda: resnet.BottleneckB(4, 2), (2, 4, 3, 3), True),
])
def test_bottlenecks_forward_and_gradients(make, x_shape, identity):
    with minichainer.using_config('dtype', np.float64):
        np.random.seed(7)
        link = make()
    for bn in (link.bn1, link.bn2, link.bn3):
        bn.gamma.array[...] = np.random.uniform(0.5, 1.5, bn.gamma.shape)
        bn.beta.array[...] = np.random.uniform(-0.5, 0.5, bn.beta.shape)
    x = np.random.uniform(-1, 1, x_shape)
    y = link(x)
    np.testing.assert_allclose(y.array, _bottleneck_reference(link, x, identity),
                               rtol=1e-7, atol=1e-9)
    gy = np.random.uniform(-1, 1, y.shape)
    params = [link.conv1.W, link.conv2.W, link.bn3.gamma]
    gradient_check.check_backward(link, x, gy, params=params, eps=1e-3, atol=1e-4,
                                  rtol=1e-4)


def test_prepare_uses_resnet_mean():
    pytest.importorskip('PIL')
    image = np.random.RandomState(4).randint(0, 256, (5, 6, 3)).astype(np.uint8)
    out = resnet.prepare(image, size=None)
    expected = (image[:, :, ::-1].astype(np.float32)
                - np.array([103.063, 115.903, 123.152], np.float32)).transpose(2, 0, 1)
    np.testing.assert_array_equal(out, expected)
