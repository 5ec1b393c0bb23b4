"""Per-rank generational checkpoints with a common resume point
(`create_multi_node_checkpointer`)."""
import os
import time

from minichainer import serializers
from minichainer.training import extension


def create_multi_node_checkpointer(name, comm, cp_interval=5, gc_interval=5, path=None):
    """Create an extension that makes every rank save its own snapshot.

    Each call writes `<name>.<rank>.<iteration>` (atomically) in `path` (the
    trainer's `out` by default) on every rank. `maybe_load(trainer, optimizer)`
    called on every rank before `trainer.run()` finds the newest iteration for which
    *every* rank has a snapshot and loads it, so a job killed at any moment resumes
    consistently. At most about `cp_interval` generations are kept once more than
    `cp_interval + gc_interval` exist; `finalize` (end of training) deletes them.

    Args:
        name (str): Identifier of the run (a prefix without dots).
        comm: The communicator.
        cp_interval (int): Number of generations to keep.
        gc_interval (int): Extra generations allowed before old ones are removed.
        path (str): Folder of the snapshots.

    Raises:
        ValueError: bad `name`, `cp_interval` or `gc_interval`.
    """
    return _MultiNodeCheckpointer(name, comm, cp_interval, gc_interval, path)


class _CheckpointStats:
    def __init__(self):
        self.timings = []
        self.begin = None

    def start(self):
        self.begin = time.time()

    def end(self):
        if self.begin is not None:
            self.timings.append(time.time() - self.begin)
            self.begin = None

    def report(self):
        if not self.timings:
            return 'No stats available'
        t = self.timings
        return 'Snapshot duration stats (sec): avg={:f}, min={:f}, max={:f}'.format(
            sum(t) / len(t), min(t), max(t))


class _MultiNodeCheckpointer(extension.Extension):

    trigger = 1, 'epoch'
    priority = -100

    def __init__(self, name, comm, cp_interval, gc_interval, path):
        if not isinstance(name, str) or not name or '.' in name or os.sep in name:
            raise ValueError('create_multi_node_checkpointer: name must be a non-empty '
                             "str without '.' or path separators, got {!r}".format(name))
        for argname, v in (('cp_interval', cp_interval), ('gc_interval', gc_interval)):
            if not isinstance(v, int) or v <= 0:
                raise ValueError('create_multi_node_checkpointer: {} must be a positive '
                                 'int, got {!r}'.format(argname, v))
        self.name = name
        self.comm = comm
        self.cp_interval = cp_interval
        self.gc_interval = gc_interval
        self.path = path
        self.files = []
        self.stats = _CheckpointStats()
        if path is not None:
            os.makedirs(path, exist_ok=True)

    @property
    def default_name(self):
        return 'multi_node_checkpointer'

    def __call__(self, trainer):
        if self.path is None:
            self.path = trainer.out
        self.save(trainer, trainer.updater.iteration)

    def save(self, target, iteration):
        """Save `target` as this rank's snapshot of `iteration` (call on every rank
        at the same iteration)."""
        if self.path is None:
            raise RuntimeError('multi-node checkpointer: no path; pass path= or use it '
                               'as a trainer extension')
        os.makedirs(self.path, exist_ok=True)
        filename = self._filename(iteration)
        self.stats.start()
        serializers.save_npz(os.path.join(self.path, filename), target)
        self.stats.end()
        if filename not in self.files:
            self.files.append(filename)
        if len(self.files) > self.cp_interval + self.gc_interval:
            self._sync_file_list(remove_remainder=True)

    def on_error(self, trainer, exc, tb):
        """Remember that training failed, so that `finalize` keeps the snapshots."""
        self._failed = True

    def finalize(self):
        """Remove this rank's snapshots once training finished without error.

        Deliberate difference from ChainerMN, which also removed them when the training
        loop raised (leaving nothing to resume from).
        """
        if getattr(self, '_failed', False):
            return
        if self.path is not None:
            for f in self.files:
                try:
                    os.remove(os.path.join(self.path, f))
                except OSError:
                    pass
        self.files = []

    def get_stats(self):
        """Timing statistics of the snapshots written by this rank."""
        return self.stats.report()

    def maybe_load(self, trainer, optimizer=None, path=None):
        """Load the newest snapshot that every rank has, if any (call on every rank).

        Args:
            trainer: The trainer (or any serializable object) to load into.
            optimizer: The multi-node optimizer; its initial broadcast is skipped since
                every rank loaded the same state.
            path (str): Folder (default: the one given at creation, else
                `trainer.out`).

        Returns:
            int or None: The iteration loaded, or None.
        """
        if self.path is None:
            self.path = path if path is not None else trainer.out
        try:
            local = os.listdir(self.path)
        except OSError:
            local = []
        iters = [p[2] for p in map(self._parse_filename, local)
                 if p is not None and p[1] == self.comm.rank]
        self.files = self._filenames(sorted(iters))
        self._sync_file_list()
        common = [self._parse_filename(f)[2] for f in self.files]
        if not common:
            return None
        it = max(common)
        serializers.load_npz(os.path.join(self.path, self._filename(it)), trainer)
        if optimizer is not None:
            optimizer.__setattr__('needs_broadcast', False)
        return it

    def _sync_file_list(self, remove_remainder=False):
        lists = self.comm.gather_obj(self.files)
        keep = None
        if self.comm.rank == 0:
            common = None
            for files in lists:
                its = {p[2] for p in map(self._parse_filename, files) if p is not None}
                common = its if common is None else common & its
            keep = sorted(common or ())[-self.cp_interval:]
        keep = self.comm.bcast_obj(keep)
        files = self._filenames(keep)
        if remove_remainder:
            for f in set(self.files) - set(files):
                try:
                    os.remove(os.path.join(self.path, f))
                except OSError:
                    pass
        self.files = files

    def _filenames(self, iterations):
        return [self._filename(i) for i in iterations]

    def _filename(self, iteration):
        return '{}.{}.{}'.format(self.name, self.comm.rank, iteration)

    def _parse_filenames(self, filenames):
        # ChainerMN's name: (name, rank, iteration) per file name, None for a foreign one
        return [self._parse_filename(f) for f in filenames]

    def _parse_filename(self, filename):
        parts = filename.split('.')
        if len(parts) != 3 or parts[0] != self.name:
            return None
        try:
            return parts[0], int(parts[1]), int(parts[2])
        except ValueError:
            return None
