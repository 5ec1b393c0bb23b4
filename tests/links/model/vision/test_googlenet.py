import numpy as np
import pytest

import minichainer
from minichainer.dataset import download
import minichainer.links as L
from minichainer.links.model.vision import googlenet
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
    with FastDraws() as draws:
        model = googlenet.GoogLeNet(pretrained_model=None)
    return model, draws.calls


@pytest.fixture
def model(built):
    return built[0]


def test_googlenet_matches_chainer(built):
    model, calls = built
    assert L.GoogLeNet is googlenet.GoogLeNet
    check_draws(calls, 'googlenet')
    check_keys(model, 'googlenet')
    assert model.available_layers == REF['googlenet']['available_layers']
    assert len(model.available_layers) == 21
    # includes both auxiliary heads, which start from inception_4a / inception_4d
    check_forward(model, 'googlenet')


def test_train_mode_dropout_draws_as_chainer(model):
    np.random.seed(3)
    with minichainer.using_config('train', True), minichainer.no_backprop_mode():
        y = model(model_input((1, 3, 224, 224)), layers=['loss3_fc'])['loss3_fc']
    check_summary(y.array, REF['googlenet']['train_loss3_fc'], 'train loss3_fc')


def test_seeded_initialization_matches_chainer():
    np.random.seed(0)
    model = googlenet.GoogLeNet(pretrained_model=None)
    ref = REF['googlenet']
    assert np.random.uniform() == pytest.approx(ref['seed0_next_uniform'], rel=1e-12)
    params = dict(model.namedparams())
    for name, head in ref['seed0_heads'].items():
        np.testing.assert_allclose(params[name].array.ravel()[:4], head, rtol=1e-6,
                                   err_msg=name)
    check_forward(model, 'googlenet', key='seed0_forward')


def test_auxiliary_heads_alone_equal_the_full_pass(model):
    x = model_input((1, 3, 224, 224))
    with minichainer.using_config('train', False), minichainer.no_backprop_mode():
        both = model(x, layers=['loss1_fc2', 'loss2_fc2', 'inception_4a'])
        alone = model(x, layers=['loss2_fc2'])
        h = both['inception_4a']
        for f in model.functions['loss1_fc2']:
            h = f(h)
    assert list(alone) == ['loss2_fc2']
    np.testing.assert_array_equal(alone['loss2_fc2'].array, both['loss2_fc2'].array)
    np.testing.assert_array_equal(h.array, both['loss1_fc2'].array)


def test_forward_argument_errors(model):
    x = model_input((1, 3, 32, 32))
    with pytest.raises(ValueError, match='train argument is not supported'):
        model(x, train=False)
    with pytest.raises(TypeError, match="unexpected keyword argument.*'test'"):
        model(x, test=True)
    with pytest.raises(ValueError, match=r"unknown layer.*'fc8'"):
        model(x, layers=['fc8'])


def test_extract_and_predict(model):
    pytest.importorskip('PIL')
    rs = np.random.RandomState(2)
    x3 = rs.uniform(0, 255, (80, 60)).astype(np.uint8)
    with minichainer.using_config('train', False):
        out = model.extract([x3], layers=['pool1'], size=None)
    assert list(out) == ['pool1']
    assert out['pool1'].shape == (1, 64, 20, 15) and out['pool1'].dtype == np.float32
    with pytest.raises(ValueError, match='train argument is not supported'):
        model.extract([x3], train=False)

    image = rs.uniform(0, 255, (250, 270, 3)).astype(np.uint8)
    y = model.predict([image], oversample=False)
    assert y.shape == (1, 1000) and y.creator is None
    x = googlenet.prepare(image, size=(256, 256))[None, :, 16:240, 16:240]
    with minichainer.using_config('train', False):
        expected = model(x)['prob'].array
    np.testing.assert_allclose(y.array, expected, rtol=1e-5, atol=1e-7)


def test_ten_crops_are_averaged(model):
    # GoogLeNet averages the crops with F.average, as Chainer does
    y = np.random.RandomState(0).uniform(size=(2, 10, 5)).astype(np.float32)
    got = model._average_crops(minichainer.Variable(y))
    np.testing.assert_allclose(got.array, y.mean(axis=1), rtol=1e-6)


def test_copy_and_npz_round_trip_via_auto(model, tmp_path, monkeypatch):
    copied = model.copy()
    assert copied.conv1 is copied.functions['conv1'][0]
    assert copied.inc4a is copied.functions['inception_4a'][0]

    monkeypatch.setattr(download, '_dataset_root', str(tmp_path))
    with pytest.raises(FileNotFoundError, match=r'bvlc_googlenet\.npz'):
        googlenet.GoogLeNet()
    path = tmp_path / 'pfnet' / 'chainer' / 'models' / 'bvlc_googlenet.npz'
    serializers.save_npz(str(path), model, compression=False)
    loaded = googlenet.GoogLeNet()
    for (name, p), (name2, q) in zip(sorted(model.namedparams()),
                                     sorted(loaded.namedparams())):
        assert name == name2
        np.testing.assert_array_equal(p.array, q.array, err_msg=name)
    with pytest.raises(NotImplementedError, match='GoogLeNet.convert_caffemodel_to_npz'):
        googlenet.GoogLeNet.convert_caffemodel_to_npz('a.caffemodel', 'b.npz')


def test_prepare_uses_bvlc_mean():
    pytest.importorskip('PIL')
    image = np.random.RandomState(4).randint(0, 256, (3, 5, 6)).astype(np.uint8)  # CHW
    out = googlenet.prepare(image, size=None)
    hwc = image.transpose(1, 2, 0)
    expected = (hwc[:, :, ::-1].astype(np.float32)
                - np.array([104.0, 117.0, 123.0], np.float32)).transpose(2, 0, 1)
    np.testing.assert_array_equal(out, expected)
