"""snapshot / snapshot_object: save the trainer (or any object) during training."""
import numbers
import os
import sys
import traceback
import warnings
import zipfile

from minichainer.serializers import npz
from minichainer.utils import atomic_write
from minichainer.training import extension
from minichainer.training.extensions import snapshot_writers


class _SerializedTarget(dict):
    """The flat `{key: array}` state of an object, taken at snapshot time.

    It is a dict (what `save_npz` writes directly) that also replays itself through
    `serialize` so that any `savefun(path, obj)` built on the serializer protocol
    writes the same keys.
    """

    def serialize(self, serializer):
        for key, value in self.items():
            serializer(key, value)


def _serialize(target):
    # DictionarySerializer stores copies, so asynchronous writers may write the state
    # while training goes on.
    s = npz.DictionarySerializer()
    s.save(target)
    return _SerializedTarget(s.target)


def _matches_format(fmt):
    """A predicate telling whether a file name looks like a name made from `fmt` (it
    starts with the text before the first `{` and ends with that after the last
    `}`)."""
    prefix = fmt.split('{')[0]
    suffix = fmt.split('}')[-1]

    def matches(name):
        return name.startswith(prefix) and name.endswith(suffix)
    return matches


def _find_snapshot_files(fmt, path):
    """Return `[(mtime_ns, name), ...]` (oldest first) of the files in `path` whose
    names start and end like `fmt` (the text before its first `{` and after its last
    `}`).  Temporary files of unfinished writes are never included."""
    prefix = fmt.split('{')[0]
    suffix = fmt.split('}')[-1]
    try:
        names = os.listdir(path)
    except OSError:
        return []
    found = []
    for name in names:
        if not (name.startswith(prefix) and name.endswith(suffix)):
            continue
        if snapshot_writers.is_temp_name(name):
            continue
        full = os.path.join(path, name)
        try:
            st = os.stat(full)
        except OSError:
            continue
        if os.path.isfile(full):
            found.append((st.st_mtime_ns, name))
    found.sort()
    return found


def _zip_problem(path, check_crc):
    """Why the snapshot at `path` is not complete, or None when it is.

    An npz snapshot is a zip file: one that starts like a zip but has no readable
    central directory (or, with ``check_crc``, a member failing its CRC) is a truncated
    or damaged copy.  Files in other formats cannot be checked and count as complete.
    """
    try:
        with open(path, 'rb') as f:
            head = f.read(4)
        if head != b'PK\x03\x04':
            return None
        with zipfile.ZipFile(path) as z:
            bad = z.testzip() if check_crc else None
    except OSError as e:
        return 'it cannot be read ({})'.format(e)
    except (zipfile.BadZipFile, EOFError, ValueError) as e:
        return 'it is truncated or not a complete zip file ({})'.format(e)
    if bad is not None:
        return 'its member {!r} fails its CRC check (damaged)'.format(bad)
    return None


def _zip_looks_complete(path, check_crc):
    return _zip_problem(path, check_crc) is None


def _is_complete(path):
    """Full check used by autoload: the zip opens and every member's CRC matches."""
    return _zip_looks_complete(path, check_crc=True)


def _latest_snapshot_and_skipped(fmt, path):
    """The newest complete snapshot matching `fmt` (or None) and the newer files
    passed over, as ``(name, reason)`` pairs, newest first."""
    skipped = []
    for _, name in reversed(_find_snapshot_files(fmt, path)):
        problem = _zip_problem(os.path.join(path, name), check_crc=True)
        if problem is None:
            return name, skipped
        skipped.append((name, problem))
    return None, skipped


def find_latest_snapshot(fmt, path):
    """Return the name of the newest complete snapshot matching `fmt`, or None."""
    return _latest_snapshot_and_skipped(fmt, path)[0]


def _warn_skipped(outdir, skipped, chosen):
    """Autoload's warning: each newer snapshot it passed over, and why."""
    for name, reason in skipped:
        warnings.warn(
            'snapshot(autoload=True): skipped {!r} because {}; {}'.format(
                os.path.join(outdir, name), reason,
                'resuming from {!r} instead'.format(chosen) if chosen is not None
                else 'no complete snapshot found, starting from scratch'),
            RuntimeWarning, stacklevel=3)


def _find_stale_snapshots(fmt, path, n_retains, **kwargs):
    """Yield the names of the matching snapshots older than the newest `n_retains`
    (`num_retain` is a deprecated alias)."""
    if 'num_retain' in kwargs:
        warnings.warn('Argument `num_retain` is deprecated. Please use `n_retains` '
                      'instead', DeprecationWarning)
        n_retains = kwargs.pop('num_retain')
    # Only complete snapshots count and only they are deleted: a truncated file left by
    # a crash must neither push a good snapshot out nor vanish before it is looked at.
    files = [name for _, name in _find_snapshot_files(fmt, path)
             if _opens_as_complete(os.path.join(path, name))]
    num_remove = len(files) - n_retains
    if num_remove > 0:
        for name in files[:num_remove]:
            yield name


def _opens_as_complete(path):
    """Cheap check used for retention: the zip's central directory can be read."""
    return _zip_looks_complete(path, check_crc=False)


def _remove_stale_temps(fmt, outdir):
    """Remove the temporary files of interrupted snapshot writes whose destination
    name matches `fmt` (only minichainer's own temporaries, and only those no live
    process is writing)."""
    return atomic_write.remove_stale_temps(outdir, _matches_format(fmt))


class _RetentionCleanup:
    """Post-save hook: delete the complete snapshots older than the `n_retains`
    newest.  A picklable object, so that it can travel to a writer process."""

    def __init__(self, fmt, outdir, n_retains):
        self.fmt = fmt
        self.outdir = outdir
        self.n_retains = n_retains

    def __call__(self):
        for name in _find_stale_snapshots(self.fmt, self.outdir, self.n_retains):
            try:
                os.remove(os.path.join(self.outdir, name))
            except OSError:
                pass


class _TempCleanup:
    """Post-save hook: remove stale temporaries of snapshots named like `fmt`."""

    def __init__(self, fmt, outdir):
        self.fmt = fmt
        self.outdir = outdir

    def __call__(self):
        _remove_stale_temps(self.fmt, self.outdir)


def _check_snapshot_arguments(filename, condition, writer, n_retains, savefun):
    if not (isinstance(filename, str) or callable(filename)):
        raise TypeError(
            'snapshot: filename must be a str (formatted with the trainer) or a callable '
            'taking the trainer, got {!r}'.format(filename))
    if condition is not None and not callable(condition):
        raise TypeError('snapshot: condition must be a callable or None, got {!r}'.format(
            condition))
    if writer is not None and not callable(writer):
        raise TypeError('snapshot: writer must be a callable writer(filename, outdir, '
                        'target) or None, got {!r}'.format(writer))
    if savefun is not None and not callable(savefun):
        raise TypeError('snapshot: savefun must be a callable savefun(path, obj) or '
                        'None, got {!r}'.format(savefun))
    if isinstance(n_retains, bool) or not isinstance(n_retains, numbers.Integral):
        raise TypeError(
            'snapshot: n_retains must be an int (the number of snapshots to keep; 0 or '
            'negative keeps all), got {!r} of type {}'.format(
                n_retains, type(n_retains).__name__))


def snapshot_object(target, filename, savefun=None, **kwargs):
    """Return an extension that saves `target` to `<out>/<filename>`.

    `filename` is formatted with the trainer (`'model_{.updater.iteration}'`) or is
    a callable taking the trainer.  Keyword arguments are those of
    [`snapshot`][minichainer.training.extensions._snapshot.snapshot] (`condition`, `writer`,
    `snapshot_on_error`, `n_retains`, `autoload`).
    """
    if 'num_retain' in kwargs:
        warnings.warn('Argument `num_retain` is deprecated. Please use `n_retains` '
                      'instead', DeprecationWarning)
        kwargs['n_retains'] = kwargs.pop('num_retain')
    return snapshot(target=target, filename=filename, savefun=savefun, **kwargs)


def snapshot(savefun=None, filename='snapshot_iter_{.updater.iteration}', **kwargs):
    """Return an extension that saves the trainer (or `target`) for resuming.

    Args:
        savefun: `savefun(path, obj)`; `save_npz` by default.  Exclusive with
            `writer`.
        filename (str or callable): File name, formatted with the trainer.
        target: Object to save instead of the trainer.
        condition (callable): Snapshot only when `condition()` is True.
        writer: A snapshot writer (`snapshot_writers`).
        snapshot_on_error (bool): Also snapshot when the training loop fails.
        n_retains (int): Keep only the newest `n_retains` complete snapshots
            (positive to take effect; needs a string `filename`).
        autoload (bool): At the start of training, load the newest complete snapshot
            matching `filename` in `out` (temporary files are ignored; a newer file
            that is truncated or damaged is skipped with a `RuntimeWarning` naming
            it and why).

    The default trigger is `(1, 'epoch')` and the priority -100.  Files are written to
    a temporary name and renamed, so a killed process never leaves a partial snapshot
    under a snapshot name.

    Stale temporary files of interrupted writes of this name pattern are removed when
    a snapshot completes and by `autoload`.  A background writer's failure is raised
    in the training loop
    ([`SnapshotWriteError`][minichainer.training.extensions.snapshot_writers.SnapshotWriteError]).

    Raises:
        TypeError: both `savefun` and `writer` given, an unknown keyword, or an
            argument of the wrong type (`n_retains` not an int, `filename` neither
            a str nor a callable, `condition`/`writer`/`savefun` not callable).
    """
    if 'num_retain' in kwargs:
        warnings.warn('Argument `num_retain` is deprecated. Please use `n_retains` '
                      'instead', DeprecationWarning)
        kwargs['n_retains'] = kwargs.pop('num_retain')
    target = kwargs.pop('target', None)
    condition = kwargs.pop('condition', None)
    writer = kwargs.pop('writer', None)
    snapshot_on_error = kwargs.pop('snapshot_on_error', False)
    n_retains = kwargs.pop('n_retains', -1)
    autoload = kwargs.pop('autoload', False)
    if kwargs:
        raise TypeError('snapshot() got unexpected keyword argument(s) {}'.format(
            ', '.join(repr(k) for k in sorted(kwargs))))
    if savefun is not None and writer is not None:
        raise TypeError('savefun and writer arguments cannot be specified together.')
    _check_snapshot_arguments(filename, condition, writer, n_retains, savefun)
    if writer is None:
        writer = snapshot_writers.SimpleWriter(savefun=savefun)
    return _Snapshot(target=target, condition=condition, writer=writer,
                     filename=filename, snapshot_on_error=snapshot_on_error,
                     n_retains=n_retains, autoload=autoload)


def _always_true():
    return True


class _Snapshot(extension.Extension):
    """The extension returned by [`snapshot`][minichainer.training.extensions._snapshot.snapshot]
    and [`snapshot_object`][minichainer.training.extensions._snapshot.snapshot_object]."""

    trigger = 1, 'epoch'
    priority = -100

    def __init__(self, target=None, condition=None, writer=None,
                 filename='snapshot_iter_{.updater.iteration}', snapshot_on_error=False,
                 n_retains=-1, autoload=False):
        if condition is None:
            condition = _always_true
        if writer is None:
            writer = snapshot_writers.SimpleWriter()
        self._target = target
        self.filename = filename
        self.condition = condition
        self.writer = writer
        self._snapshot_on_error = snapshot_on_error
        self.n_retains = n_retains
        self.autoload = autoload

    def initialize(self, trainer):
        """Autoload the newest complete snapshot and set up the `n_retains` cleanup
        and the removal of temporaries left by interrupted writes."""
        target = trainer if self._target is None else self._target
        outdir = trainer.out
        if self.autoload and isinstance(self.filename, str):
            # Debris of the interrupted run: temporaries of snapshots of this name
            # pattern (also earlier versions' names) and of any other file minichainer
            # was writing here (log, plots), whose writer process is gone.
            _remove_stale_temps(self.filename, outdir)
            atomic_write.remove_stale_temps(outdir)
            filename, skipped = _latest_snapshot_and_skipped(self.filename, outdir)
            _warn_skipped(outdir, skipped, filename)
            if filename is not None:
                npz.load_npz(os.path.join(outdir, filename), target)

        if (hasattr(self.writer, '_add_cleanup_hook') and isinstance(self.filename, str)
                and not getattr(self, '_cleanup_added', False)):
            if isinstance(self.n_retains, numbers.Integral) and self.n_retains > 0:
                self.writer._add_cleanup_hook(
                    _RetentionCleanup(self.filename, outdir, self.n_retains))
            self.writer._add_cleanup_hook(_TempCleanup(self.filename, outdir))
            self._cleanup_added = True

    def on_error(self, trainer, exc, tb):
        """Take a snapshot if `snapshot_on_error` is set."""
        self._loop_failed = True
        if self._snapshot_on_error:
            self._make_snapshot(trainer)

    def __call__(self, trainer):
        if self.condition():
            self._make_snapshot(trainer)

    def _make_snapshot(self, trainer):
        target = trainer if self._target is None else self._target
        serialized_target = _serialize(target)
        filename = self.filename
        if callable(filename):
            filename = filename(trainer)
        else:
            filename = filename.format(trainer)
        self.writer(filename, trainer.out, serialized_target)

    _loop_failed = False

    def finalize(self):
        """Finalize the writer: wait for pending writes and raise a write that failed
        in the background.  When the training loop itself failed, such an error is
        printed instead, so that it does not hide the loop's exception."""
        if not hasattr(self.writer, 'finalize'):
            return
        if not self._loop_failed:
            self.writer.finalize()
            return
        try:
            self.writer.finalize()
        except Exception as e:
            sys.stderr.write('Snapshot writer error after the training loop failed: '
                             '{}: {}\n'.format(type(e).__name__, e))
            traceback.print_exc()


_find_latest_snapshot = find_latest_snapshot  # Chainer's name
