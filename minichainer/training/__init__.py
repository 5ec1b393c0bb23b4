"""Training loop abstraction (`chainer.training`): Trainer, updaters, extensions and
triggers."""
from minichainer.training import extension  # noqa: F401
from minichainer.training import extensions  # noqa: F401
from minichainer.training import trainer  # noqa: F401
from minichainer.training import trigger  # noqa: F401
from minichainer.training import triggers  # noqa: F401
from minichainer.training import updater  # noqa: F401
from minichainer.training import updaters  # noqa: F401
from minichainer.training import util  # noqa: F401

from minichainer.training.extension import Extension  # noqa: F401
from minichainer.training.extension import make_extension  # noqa: F401
from minichainer.training.extension import PRIORITY_EDITOR  # noqa: F401
from minichainer.training.extension import PRIORITY_READER  # noqa: F401
from minichainer.training.extension import PRIORITY_WRITER  # noqa: F401
from minichainer.training.trainer import Trainer  # noqa: F401
from minichainer.training.trigger import get_trigger  # noqa: F401
from minichainer.training.trigger import IntervalTrigger  # noqa: F401
from minichainer.training.updater import Updater  # noqa: F401
from minichainer.training.updaters import ParallelUpdater  # noqa: F401
from minichainer.training.updaters import StandardUpdater  # noqa: F401
