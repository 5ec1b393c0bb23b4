"""Average an observed value over the ranks (``ObservationAggregator``)."""
from minichainer import reporter
from minichainer.training import extension
from minichainer.training import util as training_util


class ObservationAggregator(extension.Extension):
    """Report under ``aggregated_key`` the mean over the ranks (and over the iterations
    since the last communication) of the observation ``original_key``.

    Args:
        comm: The communicator.
        original_key (str): Observation to aggregate, e.g. ``'main/loss'``.
        aggregated_key (str): Key to report under (``original_key`` by default).
        comm_trigger: When to communicate (``(1, 'iteration')``).
        aggregator (callable): Combines the list of every rank's values
            (arithmetic mean by default).
    """

    trigger = 1, 'iteration'
    priority = extension.PRIORITY_EDITOR
    name = None

    def __init__(self, comm, original_key, aggregated_key=None, *,
                 comm_trigger=(1, 'iteration'), aggregator=None):
        self.comm = comm
        self.original_key = original_key
        self.aggregated_key = aggregated_key or original_key
        self.comm_trigger = training_util.get_trigger(comm_trigger)
        self.aggregator = aggregator or (lambda xs: sum(xs) / len(xs))
        self.observation_history = []

    def __call__(self, trainer):
        value = trainer.observation.get(self.original_key)
        if value is not None:
            self.observation_history.append(
                value.array if hasattr(value, 'array') else value)
        if self.comm_trigger(trainer):
            everyone = self.comm.mpi_comm.allgather(self.observation_history)
            values = [v for history in everyone for v in history]
            self.observation_history = []
            if values:
                reporter.report({self.aggregated_key: self.aggregator(values)})
