"""Lazy, optional matplotlib access for the plotting extensions (Agg, no pyplot)."""
import os
import warnings

from minichainer.utils import atomic_write


class MatplotlibCheck:
    """Whether matplotlib imports, found out once per process (the one piece of state
    the plotting extensions share).

    Attributes:
        found (bool or None): None until `__call__` first looks, then the answer.
        warned (bool): Whether the missing-matplotlib warning was given.
    """

    def __init__(self):
        self.found = None
        self.warned = False

    def __call__(self):
        """True when matplotlib can be imported; warns once when it cannot."""
        if self.found is None:
            try:
                import matplotlib  # noqa: F401
                self.found = True
            except (ImportError, TypeError):
                self.found = False
        if not self.found and not self.warned:
            self.warned = True
            warnings.warn(
                'matplotlib is not installed on your environment, so nothing will be '
                'plotted at this time. Please install matplotlib to plot figures: '
                'pip install minichainer[plot]')
        return self.found


available = MatplotlibCheck()
"""The process's check: `available()` is True when matplotlib imports."""


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
            return available.found
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
