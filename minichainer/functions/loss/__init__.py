"""Loss functions."""
from minichainer.functions.loss.absolute_error import absolute_error  # noqa: F401
from minichainer.functions.loss.absolute_error import AbsoluteError  # noqa: F401
from minichainer.functions.loss.black_out import black_out  # noqa: F401
from minichainer.functions.loss.contrastive import contrastive  # noqa: F401
from minichainer.functions.loss.contrastive import Contrastive  # noqa: F401
from minichainer.functions.loss.crf1d import argmax_crf1d  # noqa: F401
from minichainer.functions.loss.crf1d import crf1d  # noqa: F401
from minichainer.functions.loss.cross_covariance import cross_covariance  # noqa: F401
from minichainer.functions.loss.cross_covariance import CrossCovariance  # noqa: F401
from minichainer.functions.loss.ctc import connectionist_temporal_classification  # noqa
from minichainer.functions.loss.ctc import ConnectionistTemporalClassification  # noqa
from minichainer.functions.loss.decov import decov  # noqa: F401
from minichainer.functions.loss.decov import DeCov  # noqa: F401
from minichainer.functions.loss.hinge import hinge  # noqa: F401
from minichainer.functions.loss.hinge import Hinge  # noqa: F401
from minichainer.functions.loss.huber_loss import huber_loss  # noqa: F401
from minichainer.functions.loss.huber_loss import HuberLoss  # noqa: F401
from minichainer.functions.loss.mean_absolute_error import mean_absolute_error  # noqa
from minichainer.functions.loss.mean_absolute_error import MeanAbsoluteError  # noqa
from minichainer.functions.loss.mean_squared_error import mean_squared_error  # noqa
from minichainer.functions.loss.mean_squared_error import MeanSquaredError  # noqa: F401
from minichainer.functions.loss.negative_sampling import negative_sampling  # noqa: F401
from minichainer.functions.loss.sigmoid_cross_entropy import sigmoid_cross_entropy  # noqa
from minichainer.functions.loss.sigmoid_cross_entropy import SigmoidCrossEntropy  # noqa
from minichainer.functions.loss.softmax_cross_entropy import softmax_cross_entropy  # noqa
from minichainer.functions.loss.softmax_cross_entropy import SoftmaxCrossEntropy  # noqa
from minichainer.functions.loss.squared_error import squared_error  # noqa: F401
from minichainer.functions.loss.squared_error import SquaredError  # noqa: F401
from minichainer.functions.loss.triplet import triplet  # noqa: F401
from minichainer.functions.loss.triplet import Triplet  # noqa: F401
from minichainer.functions.loss.vae import bernoulli_nll  # noqa: F401
from minichainer.functions.loss.vae import gaussian_kl_divergence  # noqa: F401
from minichainer.functions.loss.vae import gaussian_nll  # noqa: F401

__all__ = [
    'absolute_error', 'argmax_crf1d', 'bernoulli_nll', 'black_out', 'contrastive', 'crf1d',
    'connectionist_temporal_classification', 'cross_covariance', 'decov',
    'gaussian_kl_divergence', 'gaussian_nll', 'hinge',
    'huber_loss', 'mean_absolute_error', 'mean_squared_error', 'negative_sampling',
    'sigmoid_cross_entropy', 'softmax_cross_entropy', 'squared_error', 'triplet',
    # FunctionNode classes Chainer exports from chainer.functions
    'AbsoluteError',
    'ConnectionistTemporalClassification',
    'Contrastive',
    'CrossCovariance',
    'DeCov',
    'Hinge',
    'HuberLoss',
    'MeanAbsoluteError',
    'MeanSquaredError',
    'SigmoidCrossEntropy',
    'SoftmaxCrossEntropy',
    'SquaredError',
    'Triplet',
]
