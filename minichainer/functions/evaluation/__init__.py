"""Evaluation metrics (``chainer.functions.evaluation``); forward only."""
from minichainer.functions.util._module_alias import alias_modules as _alias_modules
from minichainer.functions.evaluation.accuracy import Accuracy  # NOQA
from minichainer.functions.evaluation.accuracy import accuracy  # NOQA
from minichainer.functions.evaluation.binary_accuracy import BinaryAccuracy  # NOQA
from minichainer.functions.evaluation.binary_accuracy import binary_accuracy  # NOQA
from minichainer.functions.evaluation.classification_summary import ClassificationSummary  # NOQA
from minichainer.functions.evaluation.classification_summary import classification_summary  # NOQA
from minichainer.functions.evaluation.classification_summary import f1_score  # NOQA
from minichainer.functions.evaluation.classification_summary import fbeta_score  # NOQA
from minichainer.functions.evaluation.classification_summary import precision  # NOQA
from minichainer.functions.evaluation.classification_summary import recall  # NOQA
from minichainer.functions.evaluation.r2_score import R2_score  # NOQA
from minichainer.functions.evaluation.r2_score import r2_score  # NOQA

__all__ = [
    'accuracy', 'binary_accuracy', 'classification_summary', 'f1_score', 'precision',
    'r2_score', 'recall',
]

# ``from minichainer.functions.evaluation import <module>`` style access (see _module_alias)
_alias_modules(globals(), __all__)
del _alias_modules
