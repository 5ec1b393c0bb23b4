"""Lazy, optional matplotlib access for the plotting extensions (Agg, no pyplot)."""
import os
import warnings

from minichainer.utils import atomic_write

_available = None
_warned = False


def available():
    """True when matplotlib can be imported; warns once when it cannot."""
    global _available, _warned
    if _available is None:
        try:
            import matplotlib  # noqa: F401
            _available = True
        except (ImportError, TypeError):
            _available = False
    if not _available and not _warned:
        _warned = True
        warnings.warn(
            'matplotlib is not installed on your environment, so nothing will be '
            'plotted at this time. Please install matplotlib to plot figures: '
            'pip install minichainer[plot]')
    return _available


class MatplotlibMixin:
    """`available()` of the plotting extensions (PlotReport, VariableStatisticsPlot)."""

    @staticmethod
    def available():
        """True when matplotlib is installed (warns once otherwise)."""
        return available()


def module_getattr(module_name):
    """A module `__getattr__` giving Chainer's module attribute `_available` (None
    until checked, then whether matplotlib imports)."""
    def __getattr__(name):
        if name == '_available':
            return _available
        raise AttributeError('module {!r} has no attribute {!r}'.format(module_name, name))
    return __getattr__


def new_figure(**kwargs):
    """A matplotlib Figure drawn with the Agg canvas (does not touch pyplot's backend)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    fig = Figure(**kwargs)
    FigureCanvasAgg(fig)
    return fig


def save_figure(fig, path, **kwargs):
    """Save `fig` to `path` atomically (temporary file + `os.replace`)."""
    directory, name = os.path.split(path)
    root, ext = os.path.splitext(name)

    def write(fd, tmp):
        os.close(fd)
        fig.savefig(tmp, format=ext[1:] or None, **kwargs)

    atomic_write.write_atomically(directory or '.', name, write, prefix=root,
                                  suffix='.tmp' + ext)
