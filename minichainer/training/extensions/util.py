"""Console helpers for reporting extensions (``chainer.training.extensions.util``)."""
import sys


def erase_console(x, y, mode=0):
    """Erase the console from the cursor (ANSI ``ESC[J``; Windows consoles included).

    ``x``/``y`` and ``mode`` are accepted for compatibility with Chainer's Windows
    implementation and ignored on other systems.
    """
    sys.stdout.write('\033[J')


def is_terminal(out):
    """True when the stream ``out`` is an interactive terminal."""
    isatty = getattr(out, 'isatty', None)
    try:
        return bool(isatty and isatty())
    except (ValueError, OSError):
        return False
