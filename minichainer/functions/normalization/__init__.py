"""Normalization functions."""
from minichainer.functions.normalization.batch_normalization import batch_normalization  # noqa
from minichainer.functions.normalization.batch_normalization import BatchNormalization  # noqa
from minichainer.functions.normalization.batch_normalization import fixed_batch_normalization  # noqa
from minichainer.functions.normalization.batch_normalization import FixedBatchNormalization  # noqa
from minichainer.functions.normalization.batch_renormalization import batch_renormalization  # noqa
from minichainer.functions.normalization.batch_renormalization import BatchRenormalizationFunction  # noqa
from minichainer.functions.normalization.batch_renormalization import fixed_batch_renormalization  # noqa
from minichainer.functions.normalization.group_normalization import group_normalization  # noqa
from minichainer.functions.normalization.l2_normalization import normalize  # noqa: F401
from minichainer.functions.normalization.l2_normalization import NormalizeL2  # noqa: F401
from minichainer.functions.normalization.layer_normalization import layer_normalization  # noqa
from minichainer.functions.normalization.layer_normalization import LayerNormalization  # noqa
from minichainer.functions.normalization.local_response_normalization import local_response_normalization  # noqa
from minichainer.functions.normalization.local_response_normalization import LocalResponseNormalization  # noqa

__all__ = [
    'batch_normalization', 'batch_renormalization', 'fixed_batch_normalization',
    'fixed_batch_renormalization', 'group_normalization',
    'layer_normalization', 'local_response_normalization', 'normalize',
    # FunctionNode classes Chainer exports from chainer.functions
    'LayerNormalization',
    'LocalResponseNormalization',
    'NormalizeL2',
]
