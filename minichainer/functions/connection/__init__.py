"""Connection functions (linear, convolutions, embeddings)."""
from minichainer.functions.connection.bilinear import bilinear  # noqa: F401
from minichainer.functions.connection.bilinear import BilinearFunction  # noqa: F401
from minichainer.functions.connection.convolution_2d import convolution_2d  # noqa: F401
from minichainer.functions.connection.convolution_2d import Convolution2DFunction  # noqa
from minichainer.functions.connection.convolution_2d import Convolution2DGradW  # noqa
from minichainer.functions.connection.convolution_nd import convolution_1d  # noqa: F401
from minichainer.functions.connection.convolution_nd import convolution_3d  # noqa: F401
from minichainer.functions.connection.convolution_nd import convolution_nd  # noqa: F401
from minichainer.functions.connection.convolution_nd import ConvolutionND  # noqa: F401
from minichainer.functions.connection.deconvolution_2d import deconvolution_2d  # noqa
from minichainer.functions.connection.deconvolution_2d import Deconvolution2DFunction  # noqa
from minichainer.functions.connection.deconvolution_nd import deconvolution_1d  # noqa
from minichainer.functions.connection.deconvolution_nd import deconvolution_3d  # noqa
from minichainer.functions.connection.deconvolution_nd import deconvolution_nd  # noqa
from minichainer.functions.connection.deconvolution_nd import DeconvolutionND  # noqa: F401
from minichainer.functions.connection.depthwise_convolution_2d import depthwise_convolution_2d  # noqa
from minichainer.functions.connection.dilated_convolution_2d import dilated_convolution_2d  # noqa
from minichainer.functions.connection.embed_id import embed_id  # noqa: F401
from minichainer.functions.connection.embed_id import EmbedIDFunction  # noqa: F401
from minichainer.functions.connection.linear import linear  # noqa: F401
from minichainer.functions.connection.linear import LinearFunction  # noqa: F401
from minichainer.functions.connection.local_convolution_2d import local_convolution_2d  # noqa
from minichainer.functions.connection.n_step_gru import n_step_bigru  # noqa: F401
from minichainer.functions.connection.n_step_gru import n_step_gru  # noqa: F401
from minichainer.functions.connection.n_step_lstm import n_step_bilstm  # noqa: F401
from minichainer.functions.connection.n_step_lstm import n_step_lstm  # noqa: F401
from minichainer.functions.connection.n_step_rnn import n_step_birnn  # noqa: F401
from minichainer.functions.connection.n_step_rnn import n_step_rnn  # noqa: F401

__all__ = [
    'bilinear', 'convolution_1d', 'convolution_2d', 'convolution_3d', 'convolution_nd',
    'deconvolution_1d', 'deconvolution_2d', 'deconvolution_3d', 'deconvolution_nd',
    'depthwise_convolution_2d', 'dilated_convolution_2d', 'embed_id', 'linear',
    'local_convolution_2d',
    'n_step_bigru', 'n_step_bilstm', 'n_step_birnn', 'n_step_gru', 'n_step_lstm',
    'n_step_rnn',
]
