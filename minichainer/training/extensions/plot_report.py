"""PlotReport: plot the means of observed values over time (matplotlib, optional)."""
import json
import os

import numpy

from minichainer import reporter
from minichainer import serializer as serializer_module
from minichainer.training import extension
from minichainer.training import trigger as trigger_module
from minichainer.training.extensions import _plot_util


class PlotReport(_plot_util.MatplotlibMixin, extension.Extension):
    """Trainer extension that plots the interval means of `y_keys` against
    `x_key` into `<out>/<filename>`.

    matplotlib is optional (`pip install minichainer[plot]`): without it the
    extension warns once and does nothing.  Figures are drawn with the Agg canvas
    without touching pyplot's global backend.

    Args:
        y_keys (str or list of str): Keys to plot.
        x_key (str): `'iteration'` or `'epoch'`.
        trigger: When to add a point and redraw (default `(1, 'epoch')`).
        postprocess (callable): `postprocess(figure, axes, summary)` before saving.
        filename (str): Output file (`file_name` is accepted as an alias;
            default `'plot.png'`).
        marker (str): Marker of the points (default `'x'`).
        grid (bool): Draw a grid.
    """

    def __init__(self, y_keys, x_key='iteration', trigger=(1, 'epoch'), postprocess=None,
                 filename=None, marker='x', grid=True, **kwargs):
        file_name = kwargs.pop('file_name', 'plot.png')
        if kwargs:
            raise TypeError('PlotReport() got unexpected keyword argument(s) {}'.format(
                ', '.join(repr(k) for k in sorted(kwargs))))
        _plot_util.available()
        if isinstance(y_keys, str):
            y_keys = (y_keys,)
        self._x_key = x_key
        self._y_keys = y_keys
        self._trigger = trigger_module.get_trigger(trigger)
        self._file_name = file_name if filename is None else filename
        self._marker = marker
        self._grid = grid
        self._postprocess = postprocess
        self._init_summary()
        self._data = {k: [] for k in y_keys}

    def __call__(self, trainer):
        if not _plot_util.available():
            return
        keys = self._y_keys
        observation = trainer.observation
        summary = self._summary
        summary.add({k: observation[k] for k in keys if k in observation})

        # As LogReport: a call before training (iteration 0) always adds a point.
        if not (trainer.is_before_training or self._trigger(trainer)):
            return
        stats = {name: float(value) for name, value in summary.compute_mean().items()}
        updater = trainer.updater
        stats['epoch'] = updater.epoch
        stats['iteration'] = updater.iteration
        x = stats[self._x_key]
        data = self._data
        for k in keys:
            if k in stats:
                data[k].append((x, stats[k]))

        fig = _plot_util.new_figure()
        a = fig.add_subplot(111)
        a.set_xlabel(self._x_key)
        if self._grid:
            a.grid()
        for k in keys:
            xy = data[k]
            if not xy:
                continue
            xy = numpy.array(xy)
            a.plot(xy[:, 0], xy[:, 1], marker=self._marker, label=k)
        if a.has_data():
            if self._postprocess is not None:
                self._postprocess(fig, a, summary)
            legend = a.legend(bbox_to_anchor=(1.05, 1), loc=2, borderaxespad=0.)
            _plot_util.save_figure(fig, os.path.join(trainer.out, self._file_name),
                                   bbox_extra_artists=(legend,), bbox_inches='tight')
        self._init_summary()

    def serialize(self, serializer):
        """Save or load the plotted points (JSON under `_plot_<filename>`)."""
        key = '_plot_{}'.format(self._file_name)
        if isinstance(serializer, serializer_module.Serializer):
            serializer(key, json.dumps(self._data))
        else:
            self._data = json.loads(str(serializer(key, '')))

    def _init_summary(self):
        self._summary = reporter.DictSummary()


__getattr__ = _plot_util.module_getattr(__name__)
