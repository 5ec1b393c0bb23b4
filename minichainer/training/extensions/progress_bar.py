"""ProgressBar: show training progress, iterations/sec and the estimated time left."""
import datetime
import sys
import time
import warnings

from minichainer.training import extension
from minichainer.training.extensions import _notebook
from minichainer.training.extensions import util


def _bar_format(unit):
    return '{l_bar}{bar}| {n:.4g}/{total} ' + unit + 's {postfix}'


def _format_eta(seconds):
    return str(datetime.timedelta(seconds=max(0, int(round(seconds)))))


class ProgressBar(extension.Extension):
    """Trainer extension that prints the training progress.

    On a terminal it draws a `tqdm` bar over the whole training (in iterations or
    epochs, as the stop trigger counts) with the iteration, epoch, iterations/sec and
    estimated time to finish.  When `out` is not a terminal (a log file, a pipe) it
    instead prints one plain line every `update_interval` iterations, e.g.
    `'      100 iter, 1 epoch / 20 epochs, 123.45 iters/sec, ETA 0:00:15'`.  In a
    Jupyter notebook (`out` being the kernel's output) the bar is tqdm's notebook
    widget (with ipywidgets installed; the plain lines otherwise).

    Deliberate difference from Chainer: the bar is drawn by tqdm, so its look differs
    from Chainer's hand-drawn two-line bar.

    Args:
        training_length (tuple): `(length, unit)`; taken from the stop trigger's
            `get_training_length()` if None.
        update_interval (int): Number of iterations between updates of the display.
        bar_length (int): Width of the bar in characters.
        out: Stream to write to (default `sys.stdout`).
    """

    def __init__(self, training_length=None, update_interval=100, bar_length=50,
                 out=sys.stdout):
        if isinstance(update_interval, bool) or not isinstance(update_interval, int) \
                or update_interval <= 0:
            raise ValueError('ProgressBar: update_interval must be a positive int, got '
                             '{!r}'.format(update_interval))
        self._training_length = training_length
        self._update_interval = update_interval
        self._bar_length = bar_length
        self._out = out
        self._pbar = None
        self._start_time = None
        self._start_iteration = 0
        self._notebook = None

    def _length(self, trainer):
        if self._training_length is None:
            get_length = getattr(trainer.stop_trigger, 'get_training_length', None)
            if get_length is None:
                raise TypeError(
                    'ProgressBar: training_length is not given and the stop trigger {!r} '
                    'has no get_training_length()'.format(trainer.stop_trigger))
            self._training_length = get_length()
        return self._training_length

    def __call__(self, trainer):
        updater = trainer.updater
        iteration = updater.iteration
        if self._start_time is None:
            self._start_time = time.perf_counter()
            self._start_iteration = iteration - 1
        if iteration % self._update_interval != 0:
            return
        length, unit = self._length(trainer)
        done = iteration if unit == 'iteration' else updater.epoch_detail
        elapsed = time.perf_counter() - self._start_time
        n_iters = iteration - self._start_iteration
        speed = n_iters / elapsed if elapsed > 0 else 0.0
        if unit == 'iteration':
            left_iters = length - iteration
        else:
            epoch_detail = updater.epoch_detail
            left_iters = (length - epoch_detail) * iteration / epoch_detail \
                if epoch_detail > 0 else 0.0
        eta = left_iters / speed if speed > 0 else 0.0
        status = '{} iter, {} epoch / {} {}s, {:.5g} iters/sec'.format(
            iteration, updater.epoch, length, unit, speed)

        if self._pbar is None and self._notebook is None:
            self._notebook = _notebook.is_kernel_stream(self._out) \
                and self._open_notebook_bar(length, unit)
        if self._notebook or util.is_terminal(self._out):
            if self._pbar is None:
                from tqdm import tqdm
                self._pbar = tqdm(
                    total=length, file=self._out, ncols=self._bar_length + 60,
                    unit=unit, dynamic_ncols=False, leave=True,
                    bar_format=_bar_format(unit))
            self._pbar.n = min(done, length)
            self._pbar.set_postfix_str('{}, ETA {}'.format(status, _format_eta(eta)),
                                       refresh=False)
            self._pbar.refresh()
        else:
            self._out.write('{:>9}, ETA {}\n'.format(status, _format_eta(eta)))
            if hasattr(self._out, 'flush'):
                self._out.flush()

    def _open_notebook_bar(self, length, unit):
        try:
            import ipywidgets  # noqa: F401  (checked first: tqdm would fail half-built)
            from tqdm.notebook import tqdm as tqdm_notebook
            self._pbar = tqdm_notebook(total=length, unit=unit, leave=True,
                                       bar_format=_bar_format(unit))
        except ImportError as e:  # tqdm's widget needs ipywidgets
            warnings.warn('ProgressBar: showing text instead of a notebook progress '
                          'bar ({}); install ipywidgets for the widget'.format(e))
            return False
        return True

    def finalize(self):
        """Close the tqdm bar, if any."""
        if self._pbar is not None:
            self._pbar.close()
            self._pbar = None
