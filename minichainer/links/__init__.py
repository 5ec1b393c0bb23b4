"""Collection of [`Link`][minichainer.link.Link] implementations (`chainer.links`)."""
from minichainer.links.activation.maxout import Maxout  # noqa: F401
from minichainer.links.activation.prelu import PReLU  # noqa: F401
from minichainer.links.activation.simplified_dropconnect import SimplifiedDropconnect  # noqa: F401,E501
from minichainer.links.activation.swish import Swish  # noqa: F401
from minichainer.links.connection.bias import Bias  # noqa: F401
from minichainer.links.connection.bilinear import Bilinear  # noqa: F401
from minichainer.links.connection.convolution_2d import Convolution2D  # noqa: F401
from minichainer.links.connection.convolution_nd import Convolution1D  # noqa: F401
from minichainer.links.connection.convolution_nd import Convolution3D  # noqa: F401
from minichainer.links.connection.convolution_nd import ConvolutionND  # noqa: F401
from minichainer.links.connection.deconvolution_2d import Deconvolution2D  # noqa: F401
from minichainer.links.connection.deconvolution_nd import Deconvolution1D  # noqa: F401
from minichainer.links.connection.deconvolution_nd import Deconvolution3D  # noqa: F401
from minichainer.links.connection.deconvolution_nd import DeconvolutionND  # noqa: F401
from minichainer.links.connection.depthwise_convolution_2d import DepthwiseConvolution2D  # noqa: F401,E501
from minichainer.links.connection.dilated_convolution_2d import DilatedConvolution2D  # noqa: F401,E501
from minichainer.links.connection.embed_id import EmbedID  # noqa: F401
from minichainer.links.connection.highway import Highway  # noqa: F401
from minichainer.links.connection.inception import Inception  # noqa: F401
from minichainer.links.connection.inceptionbn import InceptionBN  # noqa: F401
from minichainer.links.connection.linear import Linear  # noqa: F401
from minichainer.links.connection.mlp_convolution_2d import MLPConvolution2D  # noqa: F401,E501
from minichainer.links.connection.parameter import Parameter  # noqa: F401
from minichainer.links.connection.scale import Scale  # noqa: F401
from minichainer.links.model.classifier import Classifier  # noqa: F401
from minichainer.links.model.vision.googlenet import GoogLeNet  # noqa: F401
from minichainer.links.model.vision.resnet import ResNet101Layers  # noqa: F401
from minichainer.links.model.vision.resnet import ResNet152Layers  # noqa: F401
from minichainer.links.model.vision.resnet import ResNet50Layers  # noqa: F401
from minichainer.links.model.vision.vgg import VGG16Layers  # noqa: F401
from minichainer.links.model.vision.vgg import VGG19Layers  # noqa: F401
from minichainer.links.loss.black_out import BlackOut  # noqa: F401
from minichainer.links.loss.crf1d import CRF1d  # noqa: F401
from minichainer.links.loss.hierarchical_softmax import BinaryHierarchicalSoftmax  # noqa: F401,E501
from minichainer.links.loss.negative_sampling import NegativeSampling  # noqa: F401
from minichainer.links.normalization.batch_normalization import BatchNormalization  # noqa: F401,E501
from minichainer.links.normalization.batch_renormalization import BatchRenormalization  # noqa: F401,E501
from minichainer.links.normalization.decorrelated_batch_normalization import DecorrelatedBatchNormalization  # noqa: F401,E501
from minichainer.links.normalization.group_normalization import GroupNormalization  # noqa: F401,E501
from minichainer.links.normalization.layer_normalization import LayerNormalization  # noqa: F401,E501
from minichainer.links.rnn.gru import GRU  # noqa: F401
from minichainer.links.rnn.gru import StatefulGRU  # noqa: F401
from minichainer.links.rnn.gru import StatelessGRU  # noqa: F401
from minichainer.links.rnn.lstm import LSTM  # noqa: F401
from minichainer.links.rnn.lstm import StatelessLSTM  # noqa: F401
from minichainer.links.rnn.mgu import StatefulMGU  # noqa: F401
from minichainer.links.rnn.n_step_gru import NStepBiGRU  # noqa: F401
from minichainer.links.rnn.n_step_gru import NStepGRU  # noqa: F401
from minichainer.links.rnn.n_step_lstm import NStepBiLSTM  # noqa: F401
from minichainer.links.rnn.n_step_lstm import NStepLSTM  # noqa: F401
from minichainer.links.rnn.n_step_rnn import NStepBiRNNReLU  # noqa: F401
from minichainer.links.rnn.n_step_rnn import NStepBiRNNTanh  # noqa: F401
from minichainer.links.rnn.n_step_rnn import NStepRNNReLU  # noqa: F401
from minichainer.links.rnn.n_step_rnn import NStepRNNTanh  # noqa: F401
from minichainer.links.rnn.mgu import StatelessMGU  # noqa: F401
from minichainer.links.rnn.peephole import StatefulPeepholeLSTM  # noqa: F401
from minichainer.links.rnn.tree_lstm import ChildSumTreeLSTM  # noqa: F401
from minichainer.links.rnn.tree_lstm import NaryTreeLSTM  # noqa: F401
from minichainer.links.rnn.zoneoutlstm import StatefulZoneoutLSTM  # noqa: F401
from minichainer.links.connection.deformable_convolution_2d import DeformableConvolution2D  # noqa: F401,E501
from minichainer.links.connection.local_convolution_2d import LocalConvolution2D  # noqa: F401,E501

# Short aliases.
Convolution = Convolution2D
Deconvolution = Deconvolution2D

# Chainer 7 links that minichainer does not provide (yet): a clear error names them.
_NOT_PROVIDED = frozenset([
    'TheanoFunction',
])


def __getattr__(name):
    if name in _NOT_PROVIDED:
        raise AttributeError(
            'minichainer.links.{} (chainer.links.{} in Chainer 7) is not provided by '
            'minichainer'.format(name, name))
    raise AttributeError("module 'minichainer.links' has no attribute {!r}".format(name))
