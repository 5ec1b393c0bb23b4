"""Trainer: the standard training loop (`chainer.training.Trainer`)."""
import collections
import os
import sys
import time
import traceback

import numpy

from minichainer import reporter as reporter_module
from minichainer import serializer as serializer_module
from minichainer.serializers import npz
from minichainer.training import extension as extension_module
from minichainer.training import trigger as trigger_module

_get_time = time.perf_counter

# Key under which the trainer also stores numpy's global RNG state.  Chainer's loader
# never asks for it, so such snapshots still load in Chainer; snapshots without it
# (written by Chainer) load here and leave the RNG alone.
_RNG_KEY = '_numpy_random_state'


class _ExtensionEntry:

    __slots__ = ('extension', 'trigger', 'priority', 'call_before_training')

    def __init__(self, extension, priority, trigger, call_before_training):
        self.extension = extension
        self.trigger = trigger
        self.priority = priority
        self.call_before_training = call_before_training


def _note_iteration(error, updater):
    # Name the iteration an error (e.g. CuPy's OutOfMemoryError) came from, as a note of
    # the same exception (Python >= 3.11): found from the traceback after the fact, so
    # the loop itself does no extra work.
    add_note = getattr(error, 'add_note', None)
    iteration = getattr(updater, 'iteration', None)
    if not isinstance(iteration, int):
        return
    if add_note is None:  # Python 3.10: the same attribute, not printed by tracebacks
        def add_note(note):
            try:
                error.__notes__ = list(getattr(error, '__notes__', ())) + [note]
            except AttributeError:
                pass
    tb = error.__traceback__
    inner = tb.tb_next if tb is not None else None
    if inner is not None and inner.tb_frame.f_code.co_name == 'update':
        add_note('minichainer Trainer: raised in the update of iteration {} ({} '
                 'iterations completed)'.format(iteration + 1, iteration))
    else:
        add_note('minichainer Trainer: raised by an extension at iteration {}'.format(
            iteration))


class Trainer:
    """The standard training loop.

    Each iteration calls `updater.update()` and then every extension whose trigger
    fires, in descending order of priority (registration order among equal
    priorities), inside a reporter scope whose observation is `trainer.observation`.
    The target link of each optimizer and its sub-links are registered as observers
    named `<optimizer name>` and `<optimizer name>/<link path>`.

    Args:
        updater: The updater.
        stop_trigger: When to stop; a `(period, unit)` tuple or a trigger.  None
            never stops.
        out (str): Output directory (created when training starts).
        extensions (list): Extensions to register with their defaults.

    Deliberate differences from Chainer: `serialize` also saves numpy's global RNG
    state (under `_numpy_random_state`), so that a resumed run is bit-identical to
    one that never stopped; and a failed load (`KeyError` for a missing key) leaves
    the trainer as it was.
    """

    def __init__(self, updater, stop_trigger=None, out='result', extensions=None):
        self.updater = updater
        self.stop_trigger = trigger_module.get_trigger(stop_trigger)
        self.observation = {}
        self.out = out
        if extensions is None:
            extensions = []

        reporter = reporter_module.Reporter()
        for name, optimizer in updater.get_all_optimizers().items():
            reporter.add_observer(name, optimizer.target)
            reporter.add_observers(name, optimizer.target.namedlinks(skipself=True))
        self.reporter = reporter

        self._done = False
        self._extensions = collections.OrderedDict()

        self._start_at = None
        self._snapshot_elapsed_time = 0.0
        self._final_elapsed_time = None
        self._n_loads = 0

        updater.connect_trainer(self)
        for ext in extensions:
            self.extend(ext)

    @property
    def is_before_training(self):
        """True while no update has happened yet (`updater.iteration == 0`)."""
        return self.updater.iteration == 0

    @property
    def elapsed_time(self):
        """Seconds of training so far, including the time before a resume.

        Raises:
            RuntimeError: training has not started.
        """
        if self._done:
            return self._final_elapsed_time
        if self._start_at is None:
            raise RuntimeError('training has not been started yet')
        return _get_time() - self._start_at + self._snapshot_elapsed_time

    def extend(self, extension, name=None, trigger=None, priority=None, *,
               call_before_training=False, **kwargs):
        """Register an extension.

        Args:
            extension: Callable taking the trainer.
            name (str): Name; defaults to `extension.name`, `default_name` or
                `__name__`.  A clash gets the suffix `_1`, `_2`, ...
            trigger: When to call it; defaults to `extension.trigger` or
                `(1, 'iteration')`.
            priority (int): Defaults to `extension.priority` or `PRIORITY_READER`.
            call_before_training (bool): Also call it once before the first update
                when training starts at iteration 0 (`is_before_training`).

        Raises:
            TypeError: the extension is not callable, no name can be found, or an
                unknown keyword is given.
            ValueError: the name is `'training'`, or the removed
                `invoke_before_training` argument is given.
        """
        if 'invoke_before_training' in kwargs:
            raise ValueError('invoke_before_training has been removed since Chainer '
                             'v2.0.0. Use initializer= instead.')
        if kwargs:
            raise TypeError('extend() got unexpected keyword argument(s) {}'.format(
                ', '.join(repr(k) for k in sorted(kwargs))))
        if not callable(extension):
            raise TypeError(
                'Trainer.extend: extension must be callable (an Extension, or a function '
                'taking the trainer), got {!r} of type {}'.format(
                    extension, type(extension).__name__))

        if name is None:
            name = getattr(extension, 'name', None)
            if name is None:
                name = getattr(extension, 'default_name', None)
                if name is None:
                    name = getattr(extension, '__name__', None)
                    if name is None:
                        raise TypeError('name is not given for the extension {!r}'.format(
                            extension))
        if name == 'training':
            raise ValueError('the name "training" is prohibited as an extension name')

        if trigger is None:
            trigger = getattr(extension, 'trigger', (1, 'iteration'))
        trigger = trigger_module.get_trigger(trigger)

        if priority is None:
            priority = getattr(extension, 'priority', extension_module.PRIORITY_READER)

        modified_name = name
        ordinal = 0
        while modified_name in self._extensions:
            ordinal += 1
            modified_name = '%s_%d' % (name, ordinal)

        extension.name = modified_name
        self._extensions[modified_name] = _ExtensionEntry(
            extension, priority, trigger, call_before_training)

    def get_extension(self, name):
        """Return the extension registered as `name`.

        Raises:
            ValueError: no such extension.
        """
        extensions = self._extensions
        if name in extensions:
            return extensions[name].extension
        raise ValueError('extension %s not found' % name)

    def run(self, show_loop_exception_msg=True):
        """Run the training loop until the stop trigger fires.

        Extensions' `initialize` run first (skipped for those whose trigger is
        `finished`), then, when training starts at iteration 0 (not when it resumes
        from a snapshot), those registered with `call_before_training`, in their own
        observation (LogReport and PlotReport then emit an entry for iteration 0).  On an
        exception every `on_error` handler is called before it propagates; every
        `finalize` and `updater.finalize()` run in all cases.

        As in Chainer, the trainer's reporter is current during each update and its
        extensions (not while the stop trigger is checked), and every iteration
        reports into a new `trainer.observation`.

        Raises:
            RuntimeError: the trainer already ran.
        """
        if self._done:
            raise RuntimeError('cannot run training loop multiple times')

        os.makedirs(self.out, exist_ok=True)

        extension_order = sorted(
            self._extensions.keys(),
            key=lambda name: self._extensions[name].priority, reverse=True)
        extensions = [(name, self._extensions[name]) for name in extension_order]

        self._start_at = _get_time()

        self._run_initializers(extensions)

        # Extensions registered with ``call_before_training`` run once before the first
        # update, in their own observation, but only when training really starts at
        # iteration 0 (not after a resume from a snapshot), as in Chainer.
        if self.is_before_training:
            self.observation = {}
            with self.reporter.scope(self.observation):
                for _, entry in extensions:
                    if entry.call_before_training:
                        entry.extension(self)

        update = self.updater.update
        reporter = self.reporter
        stop_trigger = self.stop_trigger
        pairs = [(entry.trigger, entry.extension) for _, entry in extensions]

        try:
            while not stop_trigger(self):
                self.observation = {}
                with reporter.scope(self.observation):
                    update()
                    for trig, ext in pairs:
                        if trig(self):
                            ext(self)
        except Exception as e:
            _note_iteration(e, self.updater)
            f = sys.stderr
            if show_loop_exception_msg:
                # Show the exception now: a finalizer that hangs would otherwise hide it.
                f.write('Exception in main training loop: {}\n'.format(e))
                f.write('Traceback (most recent call last):\n')
                traceback.print_tb(sys.exc_info()[2])
                f.write('Will finalize trainer extensions and updater before '
                        'reraising the exception.\n')
            tb = sys.exc_info()[2]
            for _, entry in extensions:
                handler = getattr(entry.extension, 'on_error', None)
                if handler:
                    try:
                        handler(self, e, tb)
                    except Exception as he:
                        f.write('Exception in error handler: {}\n'.format(he))
                        f.write('Traceback (most recent call last):\n')
                        traceback.print_tb(sys.exc_info()[2])
            raise
        finally:
            self._finalize(extensions)

        self._final_elapsed_time = self.elapsed_time
        self._done = True

    def _finalize(self, extensions):
        # Every finalizer and updater.finalize() run even when one of them raises (a
        # background snapshot writer reports a failed write there), so no iterator worker
        # or writer is left running; the first error is raised once all have run.
        first_error = None
        finalizers = [getattr(entry.extension, 'finalize', None) for _, entry in extensions]
        for finalize in finalizers + [self.updater.finalize]:
            if not finalize:
                continue
            try:
                finalize()
            except Exception as e:
                if first_error is None:
                    first_error = e
        if first_error is not None:
            raise first_error

    def _run_initializers(self, extensions):
        # An initializer may load a snapshot into the trainer (snapshot autoload, which
        # runs late because of its low priority).  The extensions initialized before
        # it are then initialized again so that they see the loaded state (e.g. a
        # shift extension re-applies its last value): unlike Chainer, autoload then
        # resumes exactly like loading the snapshot before ``run()``.
        initialized = []
        for _, entry in extensions:
            initializer = getattr(entry.extension, 'initialize', None)
            if not initializer or getattr(entry.trigger, 'finished', False):
                continue
            loads = self._n_loads
            initializer(self)
            if self._n_loads != loads:
                for other in initialized:
                    if not getattr(other.trigger, 'finished', False):
                        other.extension.initialize(self)
            initialized.append(entry)

    def serialize(self, serializer):
        """Save or load the updater, stop trigger, extensions and their triggers, the
        elapsed time and numpy's global RNG state.

        Raises:
            KeyError: a key the trainer needs is missing from the snapshot; the trainer
                is then restored to its state before the load.
        """
        if isinstance(serializer, serializer_module.Serializer):
            self._serialize_body(serializer)
            state = numpy.random.get_state(legacy=True)
            if state[0] == 'MT19937':
                s = serializer[_RNG_KEY]
                s('keys', numpy.asarray(state[1], dtype=numpy.uint32))
                s('pos', numpy.int64(state[2]))
                s('has_gauss', numpy.int64(state[3]))
                s('cached_gaussian', numpy.float64(state[4]))
            return

        backup = self._backup_state()
        try:
            self._serialize_body(serializer)
        except KeyError:
            self._restore_state(backup)
            raise
        self._load_rng_state(serializer)
        self._n_loads += 1

    def _serialize_body(self, serializer):
        self.updater.serialize(serializer['updater'])
        if hasattr(self.stop_trigger, 'serialize'):
            self.stop_trigger.serialize(serializer['stop_trigger'])

        s = serializer['extensions']
        t = serializer['extension_triggers']
        for name, entry in self._extensions.items():
            if hasattr(entry.extension, 'serialize'):
                entry.extension.serialize(s[name])
            if hasattr(entry.trigger, 'serialize'):
                entry.trigger.serialize(t[name])

        if isinstance(serializer, serializer_module.Serializer):
            serializer('_snapshot_elapsed_time', self.elapsed_time)
        else:
            self._snapshot_elapsed_time = serializer('_snapshot_elapsed_time', 0.0)

    def _backup_state(self):
        # An in-memory copy of the state so that a failed load can be undone.
        s = npz.DictionarySerializer()
        started = self._start_at
        if started is None:
            self._start_at = _get_time()
        try:
            self._serialize_body(s)
        finally:
            self._start_at = started
        return s.target  # DictionarySerializer stores copies

    def _restore_state(self, backup):
        saved = self._snapshot_elapsed_time
        self._serialize_body(npz.NpzDeserializer(backup, strict=False))
        self._snapshot_elapsed_time = saved

    @staticmethod
    def _load_rng_state(serializer):
        s = serializer[_RNG_KEY]
        try:
            keys = s('keys', None)
            pos = s('pos', None)
            has_gauss = s('has_gauss', None)
            cached = s('cached_gaussian', None)
        except KeyError:
            return  # a snapshot written without it (e.g. by Chainer)
        if keys is None or pos is None or has_gauss is None or cached is None:
            return
        numpy.random.set_state(('MT19937', numpy.asarray(keys, dtype=numpy.uint32),
                                int(pos), int(has_gauss), float(cached)))
