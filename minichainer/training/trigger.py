"""`get_trigger` (`chainer.training.trigger`)."""
from minichainer.training.triggers.interval_trigger import IntervalTrigger  # noqa: F401
from minichainer.training.util import _never_fire_trigger  # noqa: F401
from minichainer.training.util import get_trigger  # noqa: F401
