"""Early stopping on a value averaged over the ranks (`MultiNodeEarlyStoppingTrigger`)."""
from minichainer.distributed.extensions.observation_aggregator import ObservationAggregator
from minichainer.training.triggers import EarlyStoppingTrigger


class MultiNodeEarlyStoppingTrigger:
    """An [`EarlyStoppingTrigger`][minichainer.training.triggers.early_stopping_trigger.EarlyStoppingTrigger]
    on the mean over the ranks of `monitor`, so that every rank stops at the same iteration.

    Arguments are those of EarlyStoppingTrigger, plus `comm`.
    """

    def __init__(self, comm, check_trigger=(1, 'epoch'), monitor='main/loss',
                 patience=None, mode='auto', verbose=False, max_trigger=(100, 'epoch'),
                 **kwargs):
        aggregated = monitor + '-aggregated'
        self.actual_trigger = EarlyStoppingTrigger(
            check_trigger=check_trigger, monitor=aggregated, patience=patience, mode=mode,
            verbose=verbose, max_trigger=max_trigger, **kwargs)
        self.aggregator = ObservationAggregator(comm, monitor, aggregated,
                                                comm_trigger=check_trigger)

    def __call__(self, trainer):
        self.aggregator(trainer)
        return self.actual_trigger(trainer)

    def get_training_length(self):
        return self.actual_trigger.get_training_length()

    def serialize(self, serializer):
        if hasattr(self.actual_trigger, 'serialize'):
            self.actual_trigger.serialize(serializer)

    def _stop_condition(self):
        return self.actual_trigger._stop_condition()

    def _init_summary(self):
        return self.actual_trigger._init_summary()
