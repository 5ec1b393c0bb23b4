"""Average an observed value over the ranks (`ObservationAggregator`)."""
from minichainer.training import extension
from minichainer.training import util as training_util


def _average_2d(xs):
    values = [v for history in xs for v in history]
    return sum(values) / len(values)


class ObservationAggregator(extension.Extension):
    """Put in `trainer.observation[aggregated_key]` a summary over the ranks of the
    values of `original_key` observed since the last communication.

    Args:
        comm: The communicator.
        original_key (str): Observation to aggregate, e.g. `'main/loss'`.
        aggregated_key (str): Key of the summary (`original_key` by default, which
            overwrites it).
        comm_trigger: When to communicate (`(1, 'iteration')`).
        aggregator (callable): Called on rank 0 with the list (one item per rank) of
            lists of observed values; the mean of all values by default. Its result is
            broadcast to every rank.
    """

    trigger = 1, 'iteration'
    priority = extension.PRIORITY_EDITOR
    name = None

    def __init__(self, comm, original_key, aggregated_key=None, *,
                 comm_trigger=(1, 'iteration'), aggregator=None):
        self.comm = comm
        self.original_key = original_key
        self.aggregated_key = original_key if aggregated_key is None else aggregated_key
        self.comm_trigger = training_util.get_trigger(comm_trigger)
        self.aggregator = aggregator or _average_2d
        self.observation_history = []

    def compute_summary(self, trainer):
        """Record this iteration's value; on `comm_trigger` return the summary (else
        None)."""
        if self.original_key in trainer.observation:
            value = trainer.observation[self.original_key]
            self.observation_history.append(
                value.array if hasattr(value, 'array') else value)
        if not self.comm_trigger(trainer):
            return None
        gathered = self.comm.gather_obj(self.observation_history)
        self.observation_history = []
        summary = self.aggregator(gathered) if self.comm.rank == 0 else None
        return self.comm.bcast_obj(summary)

    def __call__(self, trainer):
        summary = self.compute_summary(trainer)
        if summary is not None:
            trainer.observation[self.aggregated_key] = summary
