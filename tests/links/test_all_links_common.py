"""Properties every link must have: npz round trip, the three copy modes, to_device."""
import numpy as np
import pytest

import minichainer
import minichainer.links as L

from . import _util

MAKERS = {
    'Linear': lambda: L.Linear(3, 2),
    'Convolution2D': lambda: L.Convolution2D(2, 3, 2),
    'Convolution1D': lambda: L.Convolution1D(2, 3, 2),
    'Convolution3D': lambda: L.Convolution3D(2, 3, 2),
    'Deconvolution2D': lambda: L.Deconvolution2D(2, 3, 2),
    'Deconvolution1D': lambda: L.Deconvolution1D(2, 3, 2),
    'DepthwiseConvolution2D': lambda: L.DepthwiseConvolution2D(2, 2, 2),
    'DilatedConvolution2D': lambda: L.DilatedConvolution2D(2, 2, 2),
    'MLPConvolution2D': lambda: L.MLPConvolution2D(2, (3, 2), 2),
    'EmbedID': lambda: L.EmbedID(4, 2),
    'Bilinear': lambda: L.Bilinear(2, 2, 3),
    'Bias': lambda: L.Bias(shape=(3,)),
    'Scale': lambda: L.Scale(W_shape=(3,), bias_term=True),
    'Highway': lambda: L.Highway(3),
    'Inception': lambda: L.Inception(2, 1, 1, 1, 1, 1, 1),
    'InceptionBN': lambda: L.InceptionBN(2, 1, 1, 1, 1, 1, 'max', 1),
    'Parameter': lambda: L.Parameter(np.arange(3, dtype=np.float32)),
    'Maxout': lambda: L.Maxout(3, 2, 2),
    'PReLU': lambda: L.PReLU((3,)),
    'Swish': lambda: L.Swish((3,)),
    'SimplifiedDropconnect': lambda: L.SimplifiedDropconnect(3, 2),
    'BatchNormalization': lambda: L.BatchNormalization(3),
    'LayerNormalization': lambda: L.LayerNormalization(3),
    'GroupNormalization': lambda: L.GroupNormalization(1, 3),
    'LSTM': lambda: L.LSTM(3, 2),
    'StatelessLSTM': lambda: L.StatelessLSTM(3, 2),
    'GRU': lambda: L.GRU(3, 2),
    'StatelessGRU': lambda: L.StatelessGRU(3, 2),
    'StatefulPeepholeLSTM': lambda: L.StatefulPeepholeLSTM(3, 2),
    'StatefulZoneoutLSTM': lambda: L.StatefulZoneoutLSTM(3, 2),
    'StatefulMGU': lambda: L.StatefulMGU(3, 2),
    'StatelessMGU': lambda: L.StatelessMGU(3, 2),
    'NStepLSTM': lambda: L.NStepLSTM(1, 2, 2, 0.0),
    'NStepBiGRU': lambda: L.NStepBiGRU(1, 2, 2, 0.0),
    'NStepRNNTanh': lambda: L.NStepRNNTanh(1, 2, 2, 0.0),
    'Classifier': lambda: L.Classifier(L.Linear(3, 2)),
    'NegativeSampling': lambda: L.NegativeSampling(3, [3, 2, 1], 2),
    'BlackOut': lambda: L.BlackOut(3, [3, 2, 1], 2),
    'CRF1d': lambda: L.CRF1d(3),
    'BinaryHierarchicalSoftmax': lambda: L.BinaryHierarchicalSoftmax(3, ((0, 1), 2)),
    'BatchRenormalization': lambda: L.BatchRenormalization(3),
    'DecorrelatedBatchNormalization': lambda: L.DecorrelatedBatchNormalization(4, groups=2),
    'LocalConvolution2D': lambda: L.LocalConvolution2D(2, 3, in_size=4, ksize=2),
    'DeformableConvolution2D': lambda: L.DeformableConvolution2D(2, 3, 2),
    'ChildSumTreeLSTM': lambda: L.ChildSumTreeLSTM(3, 2),
    'NaryTreeLSTM': lambda: L.NaryTreeLSTM(3, 2),
}
# Large pre-trained-model architectures: covered by tests/links/model/vision.
_OWN_TESTS = {'VGG16Layers', 'VGG19Layers', 'ResNet50Layers', 'ResNet101Layers',
              'ResNet152Layers', 'GoogLeNet'}


def _randomize(link):
    # Give every parameter distinct values so that a wrong load cannot go unnoticed.
    for p in link.params(include_uninit=False):
        p.array[...] = np.random.randn(*p.shape)


def test_every_public_link_is_covered():
    public = {name for name in dir(L) if isinstance(getattr(L, name), type)
              and issubclass(getattr(L, name), minichainer.Link)}
    aliases = {'Convolution', 'Deconvolution', 'StatefulGRU', 'NStepGRU', 'NStepBiLSTM',
               'NStepRNNReLU', 'NStepBiRNNTanh', 'NStepBiRNNReLU', 'ConvolutionND',
               'DeconvolutionND', 'Deconvolution3D', 'StatefulZoneoutLSTM'}
    assert public - set(MAKERS) - aliases - _OWN_TESTS == set()


@pytest.mark.parametrize('name', sorted(set(MAKERS) - {'DecorrelatedBatchNormalization'}))
def test_npz_round_trip_and_copy_modes(name, tmp_path):
    # (DecorrelatedBatchNormalization has persistents only: its own tests cover npz.)
    make = MAKERS[name]
    _util.check_npz_round_trip(make, tmp_path, prepare=_randomize)
    link = make()
    _randomize(link)
    _util.check_copy_modes(link)


@pytest.mark.parametrize('name', sorted(MAKERS))
def test_to_device_keeps_arrays_on_the_cpu(name):
    link = MAKERS[name]()
    arrays = [p.array for p in link.params(include_uninit=False)]
    assert link.to_device('@numpy') is link
    after = [p.array for p in link.params(include_uninit=False)]
    assert len(after) == len(arrays) and all(a is b for a, b in zip(arrays, after))
    cpu = minichainer.get_device(-1)
    assert link.xp is np and all(sub.device == cpu for sub in link.links())
    with pytest.raises(RuntimeError, match='GPU'), pytest.deprecated_call(match='to_gpu'):
        link.to_gpu()


def test_missing_chainer_links_are_named_in_the_error():
    with pytest.raises(AttributeError, match='TheanoFunction.*not provided'):
        L.TheanoFunction
    assert not hasattr(L, 'NoSuchLink')
