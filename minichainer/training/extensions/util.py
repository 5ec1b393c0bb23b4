"""Console helpers for reporting extensions (`chainer.training.extensions.util`)."""
import collections
import sys
import time


def erase_console(x, y, mode=0):
    """Erase the console from the cursor (ANSI `ESC[J`; Windows consoles included).

    `x`/`y` and `mode` are accepted for compatibility with Chainer's Windows
    implementation and ignored on other systems.
    """
    sys.stdout.write('\033[J')


def is_terminal(out):
    """True when the stream `out` is an interactive terminal."""
    isatty = getattr(out, 'isatty', None)
    try:
        return bool(isatty and isatty())
    except (ValueError, OSError):
        return False


class ProgressBar:
    """Base class of multi-line console progress bars (Chainer's
    `training.extensions.util.ProgressBar`).

    Subclasses implement `get_lines` (a list of strings, each ending with a
    newline); `update` redraws them in place with ANSI escapes and
    `close` erases them.

    Args:
        bar_length (int): Width of the bar in characters (50 by default).
        out: Output stream (`sys.stdout` by default).
    """

    def __init__(self, bar_length=None, out=None):
        self._bar_length = 50 if bar_length is None else bar_length
        self._out = sys.stdout if out is None else out
        self._recent_timing = collections.deque([], maxlen=100)

    def update_speed(self, iteration, epoch_detail):
        """Record the current progress; return `(iterations/sec, epochs/sec)` over
        the last (at most 100) recorded points, `inf` when no time has passed."""
        now = time.time()
        self._recent_timing.append((iteration, epoch_detail, now))
        old_iteration, old_epoch, old_time = self._recent_timing[0]
        span = now - old_time
        if span == 0:
            return float('inf'), float('inf')
        return (iteration - old_iteration) / span, (epoch_detail - old_epoch) / span

    def get_lines(self):
        """Return the lines to draw; implemented by subclasses."""
        raise NotImplementedError

    def update(self):
        """Redraw the lines and move the cursor back above them."""
        self.erase_console()
        lines = self.get_lines()
        for line in lines:
            self._out.write(line)
        self.move_cursor_up(len(lines))
        self.flush()

    def close(self):
        """Erase the bar."""
        self.erase_console()
        self.flush()

    def erase_console(self):
        self._out.write('\033[J')

    def move_cursor_up(self, n):
        self._out.write('\033[{:d}A'.format(n))

    def flush(self):
        flush = getattr(self._out, 'flush', None)
        if flush is not None:
            flush()
