"""Snapshots written by one rank per replica set, autoloaded by all
(`multi_node_snapshot`)."""
import io

from minichainer.serializers import npz
from minichainer.training import extension
from minichainer.training.extensions import _snapshot


def multi_node_snapshot(comm, snapshot, replica_sets=None):
    """Wrap a [`snapshot`][minichainer.training.extensions._snapshot.snapshot] extension for a job.

    Ranks are grouped in replica sets whose members hold the same state; only the lowest
    rank of each set (its master) writes, to the snapshot's file name with `.<rank>`
    appended. With `autoload`, each master loads its newest snapshot and sends the
    loaded state to the other members of its set, so every rank resumes.

    Args:
        comm: The communicator.
        snapshot: The snapshot extension to wrap (its `filename` is changed).
        replica_sets (list): Each item a rank or an iterable of ranks; ranks not listed
            form one more set. None or `[]`: all ranks are one set (only rank 0
            writes).

    Raises:
        ValueError: a rank out of range or in two sets.
    """
    return _MultiNodeSnapshot(comm, snapshot, replica_sets or [])


def _parse_replica_sets(replica_sets, size):
    sets = []
    seen = set()
    for item in replica_sets:
        s = {item} if isinstance(item, int) else set(item)
        for r in s:
            if not isinstance(r, int) or not 0 <= r < size:
                raise ValueError('multi_node_snapshot: replica set ranks must be in '
                                 '[0, {}), got {!r}'.format(size, r))
        if s & seen:
            raise ValueError('multi_node_snapshot: ranks {} appear in two replica '
                             'sets'.format(sorted(s & seen)))
        seen |= s
        sets.append(s)
    rest = set(range(size)) - seen
    if rest:
        sets.append(rest)
    return sets


class _MultiNodeSnapshot(extension.Extension):

    def __init__(self, comm, snapshot, replica_sets):
        self.comm = comm
        self.snapshot = snapshot
        self.trigger = getattr(snapshot, 'trigger', extension.Extension.trigger)
        self.priority = getattr(snapshot, 'priority', extension.Extension.priority)
        rank = comm.rank
        if callable(snapshot.filename):
            inner = snapshot.filename
            snapshot.filename = lambda trainer: '{}.{}'.format(inner(trainer), rank)
        else:
            snapshot.filename = '{}.{}'.format(snapshot.filename, rank)
        for s in _parse_replica_sets(replica_sets, comm.size):
            if rank in s:
                self.replica_set = s
                self.master = min(s)
                break

    @property
    def default_name(self):
        return 'multi_node_snapshot'

    @property
    def is_master(self):
        return self.master == self.comm.rank

    def initialize(self, trainer):
        if self.is_master:
            self.snapshot.initialize(trainer)
        if not getattr(self.snapshot, 'autoload', False):
            return
        target = trainer if self.snapshot._target is None else self.snapshot._target
        if self.is_master:
            data = None
            if isinstance(self.snapshot.filename, str) and _snapshot.find_latest_snapshot(
                    self.snapshot.filename, trainer.out) is not None:
                buf = io.BytesIO()
                npz.save_npz(buf, target)
                data = buf.getvalue()
            for r in sorted(self.replica_set):
                if r != self.comm.rank:
                    self.comm.send_obj(data, dest=r)
        else:
            data = self.comm.recv_obj(source=self.master)
            if data is not None:
                npz.load_npz(io.BytesIO(data), target)

    def on_error(self, trainer, exc, tb):
        if self.is_master:
            self.snapshot.on_error(trainer, exc, tb)

    def __call__(self, trainer):
        if self.is_master:
            self.snapshot(trainer)

    def finalize(self):
        if self.is_master:
            self.snapshot.finalize()
