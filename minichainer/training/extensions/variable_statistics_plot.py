"""VariableStatisticsPlot: plot statistics of variables' data and gradients over time."""
import os

import numpy

from minichainer import backend
from minichainer import link
from minichainer import variable
from minichainer.training import extension
from minichainer.training import trigger as trigger_module
from minichainer.training.extensions import _plot_util

_plot_color = '#1f77b4'  # matplotlib's default first colour
_plot_color_trans = _plot_color + '4f'
_plot_common_kwargs = {'alpha': 0.2, 'linewidth': 0, 'color': _plot_color}


def _unpack_variables(x, memo=None):
    if memo is None:
        memo = ()
    if isinstance(x, variable.Variable):
        memo += (x,)
    elif isinstance(x, link.Link):
        memo += tuple(x.params(include_uninit=True))
    elif isinstance(x, (list, tuple)):
        for xi in x:
            memo += _unpack_variables(xi)
    return memo


class Reservoir:
    """Reservoir sample of at most `size` arrays of shape `data_shape`.

    Past `size` items, replacements draw from numpy's global RNG as Chainer does.
    """

    def __init__(self, size, data_shape, dtype=numpy.float32):
        self.size = size
        self.data = numpy.zeros((size,) + data_shape, dtype=dtype)
        self.idxs = numpy.zeros((size,), dtype=numpy.int32)
        self.counter = 0

    def add(self, x, idx=None):
        """Offer `x` (recorded with index `idx`)."""
        if self.counter < self.size:
            self.data[self.counter] = x
            self.idxs[self.counter] = idx or self.counter
        elif numpy.random.random() < self.size / float(self.counter + 1):
            i = numpy.random.randint(self.size)
            self.data[i] = x
            self.idxs[i] = idx or self.counter
        self.counter += 1

    def get_data(self):
        """Return `(indices, data)` sorted by index."""
        idxs = self.idxs[:min(self.counter, self.size)]
        order = numpy.argsort(idxs)
        return idxs[order], self.data[order]


class Statistician:
    """Computes mean, std and percentiles of an array.

    `percentile_sigmas` are percentiles (0-100); the default ones are those of
    -3, -2, -1, 0, 1, 2 and 3 sigmas of a normal distribution, plus 0 and 100.
    """

    def __init__(self, collect_mean, collect_std, percentile_sigmas):
        self.collect_mean = collect_mean
        self.collect_std = collect_std
        self.percentile_sigmas = percentile_sigmas

    def __call__(self, x, axis=0, dtype=None, xp=None):
        """Return the statistics of `x` over `axis` (all axes if None), cast to
        `dtype` (`x.dtype` by default)."""
        if axis is None:
            axis = tuple(range(x.ndim))
        elif not isinstance(axis, (tuple, list)):
            axis = axis,
        if dtype is None:
            dtype = x.dtype
        return {k: v.astype(dtype, copy=False) if hasattr(v, 'astype') else v
                for k, v in self.collect(x, axis).items()}

    def collect(self, x, axis):
        """Return a dict with `mean`, `std` and `percentile` as configured."""
        out = {}
        if self.collect_mean:
            out['mean'] = x.mean(axis=axis)
        if self.collect_std:
            out['std'] = x.std(axis=axis)
        if self.percentile_sigmas:
            xp = backend.get_array_module(x)
            out['percentile'] = xp.percentile(x, self.percentile_sigmas, axis=axis)
        return out


class VariableStatisticsPlot(_plot_util.MatplotlibMixin, extension.Extension):
    """Trainer extension that samples statistics (mean, std, percentiles) of the data
    and gradients of `targets` at every call and plots them at each `trigger`.

    matplotlib is optional: without it the extension warns once and does nothing.

    Args:
        targets: Variable, Link or list of them.
        max_sample_size (int): Size of the reservoir of samples.
        report_data (bool), report_grad (bool): What to plot.
        plot_mean (bool), plot_std (bool): Plot mean and std.
        percentile_sigmas (tuple): Percentiles to plot (0-100); the default covers
            +-1, 2 and 3 sigmas, the median, the minimum and the maximum.
        trigger: When to save the plot (default `(1, 'epoch')`).
        filename (str): Output file (`file_name` alias; `'statistics.png'`).
        figsize (tuple), marker (str), grid (bool): Plot options.

    Raises:
        ValueError: no variable is given, or there is nothing to plot.
    """

    def __init__(self, targets, max_sample_size=1000, report_data=True, report_grad=True,
                 plot_mean=True, plot_std=True,
                 percentile_sigmas=(0, 0.13, 2.28, 15.87, 50, 84.13, 97.72, 99.87, 100),
                 trigger=(1, 'epoch'), filename=None, figsize=None, marker=None,
                 grid=True, **kwargs):
        file_name = kwargs.pop('file_name', 'statistics.png')
        if kwargs:
            raise TypeError('VariableStatisticsPlot() got unexpected keyword argument(s) '
                            '{}'.format(', '.join(repr(k) for k in sorted(kwargs))))
        self._vars = _unpack_variables(targets)
        if not self._vars:
            raise ValueError('Need at least one variables for which to collect '
                             'statistics.\nActual: 0 <= 0')
        if not any((plot_mean, plot_std, bool(percentile_sigmas))):
            raise ValueError('Nothing to plot')
        self._keys = []
        if report_data:
            self._keys.append('data')
        if report_grad:
            self._keys.append('grad')
        self._report_data = report_data
        self._report_grad = report_grad
        if percentile_sigmas and not isinstance(percentile_sigmas, (list, tuple)):
            percentile_sigmas = (percentile_sigmas,)
        self._statistician = Statistician(plot_mean, plot_std, percentile_sigmas)
        self._plot_mean = plot_mean
        self._plot_std = plot_std
        self._plot_percentile = bool(percentile_sigmas)
        self._trigger = trigger_module.get_trigger(trigger)
        self._filename = file_name if filename is None else filename
        self._figsize = figsize
        self._marker = marker
        self._grid = grid
        n_percentile = len(percentile_sigmas) if self._plot_percentile else 0
        self._data_shape = (len(self._keys),
                            int(plot_mean) + int(plot_std) + n_percentile)
        self._samples = Reservoir(max_sample_size, data_shape=self._data_shape)

    def __call__(self, trainer):
        if not _plot_util.available():
            return
        stats = numpy.zeros(self._data_shape, dtype=numpy.float32)
        for i, k in enumerate(self._keys):
            xs = []
            for var in self._vars:
                x = getattr(var, 'array' if k == 'data' else k, None)
                if x is not None:
                    xs.append(x.ravel())
            if xs:
                xp = backend.get_array_module(xs[0])
                stat = self._statistician(xp.concatenate(xs, axis=0), axis=0)
                parts = []
                if self._plot_mean:
                    parts.append(xp.atleast_1d(stat['mean']))
                if self._plot_std:
                    parts.append(xp.atleast_1d(stat['std']))
                if self._plot_percentile:
                    parts.append(xp.atleast_1d(stat['percentile']))
                # statistics of GPU arrays are computed there; one copy to the host
                stats[i] = backend.CpuDevice().send(xp.concatenate(parts, axis=0))
        self._samples.add(stats, idx=trainer.updater.iteration)
        if self._trigger(trainer):
            self.save_plot_using_module(os.path.join(trainer.out, self._filename), None)

    def save_plot_using_module(self, file_path, plt=None):
        """Draw the sampled statistics and save them to `file_path`."""
        nrows = int(self._plot_mean or self._plot_std) + int(self._plot_percentile)
        ncols = len(self._keys)
        fig = _plot_util.new_figure(figsize=self._figsize)
        axes = numpy.asarray(fig.subplots(nrows, ncols, sharex=True, squeeze=False))
        idxs, data = self._samples.get_data()
        offset = int(self._plot_mean) + int(self._plot_std)
        n_percentile = data.shape[-1] - offset
        mid = n_percentile // 2
        odd = n_percentile % 2 == 1
        for col in range(ncols):
            row = 0
            ax = axes[row, col]
            ax.set_title(self._keys[col])
            if self._plot_mean or self._plot_std:
                if self._plot_mean and self._plot_std:
                    ax.errorbar(idxs, data[:, col, 0], data[:, col, 1], color=_plot_color,
                                ecolor=_plot_color_trans, label='mean, std',
                                marker=self._marker)
                else:
                    label = 'mean' if self._plot_mean else 'std'
                    ax.plot(idxs, data[:, col, 0], color=_plot_color, label=label,
                            marker=self._marker)
                row += 1
            if self._plot_percentile:
                ax = axes[row, col]
                for i in range(mid + 1):
                    if odd and i == mid:
                        ax.plot(idxs, data[:, col, offset + i], color=_plot_color,
                                label='percentile', marker=self._marker)
                    else:
                        label = 'percentile' if i == mid else '_nolegend_'
                        ax.fill_between(idxs, data[:, col, offset + i],
                                        data[:, col, -i - 1], label=label,
                                        **_plot_common_kwargs)
                ax.set_xlabel('iteration')
        for ax in axes.ravel():
            ax.legend()
            if self._grid:
                ax.grid()
                ax.set_axisbelow(True)
        _plot_util.save_figure(fig, file_path)


__getattr__ = _plot_util.module_getattr(__name__)
