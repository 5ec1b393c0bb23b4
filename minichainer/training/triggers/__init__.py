"""Trainer triggers (`chainer.training.triggers`)."""
from minichainer.training.triggers.early_stopping_trigger import EarlyStoppingTrigger  # noqa
from minichainer.training.triggers.interval_trigger import IntervalTrigger  # noqa
from minichainer.training.triggers.manual_schedule_trigger import ManualScheduleTrigger  # noqa
from minichainer.training.triggers.minmax_value_trigger import BestValueTrigger  # noqa
from minichainer.training.triggers.minmax_value_trigger import MaxValueTrigger  # noqa
from minichainer.training.triggers.minmax_value_trigger import MinValueTrigger  # noqa
from minichainer.training.triggers.once_trigger import OnceTrigger  # noqa
from minichainer.training.triggers.time_trigger import TimeTrigger  # noqa
