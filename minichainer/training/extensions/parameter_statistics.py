"""ParameterStatistics: report statistics of the parameters and gradients of links."""
import numpy

from minichainer import backend
from minichainer import reporter
from minichainer.training import extension
from minichainer.training import trigger as trigger_module


def _xp(x):
    return backend.get_array_module(x)


class ParameterStatistics(extension.Extension):
    """Trainer extension that reports mean/std/min/max/zeros/percentiles of every
    parameter's data and gradient, averaged over `trigger` intervals.

    Keys look like `'<prefix>/<link name>/<param path>/<data|grad>/<statistic>'`;
    a statistic returning several values gets `/0`, `/1`... appended.

    Args:
        links (Link or list of Links): Links to watch.
        statistics (dict): `name -> function(flat array)`; `'default'` for the
            standard set, None for none.
        report_params (bool), report_grads (bool): What to watch.
        prefix (str): Key prefix.
        trigger: When to report the averages (default `(1, 'epoch')`).
        skip_nan_params (bool): Report NaN for a parameter holding NaN instead of
            computing the statistics.
    """

    default_name = 'parameter_statistics'
    priority = extension.PRIORITY_WRITER

    # prefix ends with a '/' and param_name starts with one
    report_key_template = '{prefix}{link_name}{param_name}/{attr_name}/{function_name}'

    default_statistics = {
        'mean': lambda x: _xp(x).mean(x),
        'std': lambda x: _xp(x).std(x),
        'min': lambda x: _xp(x).min(x),
        'max': lambda x: _xp(x).max(x),
        'zeros': lambda x: _xp(x).count_nonzero(x == 0),
        'percentile': lambda x: _xp(x).percentile(
            x, (0.13, 2.28, 15.87, 50, 84.13, 97.72, 99.87)),
    }

    def __init__(self, links, statistics='default', report_params=True, report_grads=True,
                 prefix=None, trigger=(1, 'epoch'), skip_nan_params=False):
        if not isinstance(links, (list, tuple)):
            links = links,
        self._links = links
        if statistics is None:
            statistics = {}
        elif isinstance(statistics, str) and statistics == 'default':
            statistics = self.default_statistics
        self._statistics = dict(statistics)
        attrs = []
        if report_params:
            attrs.append('data')
        if report_grads:
            attrs.append('grad')
        self._attrs = attrs
        self._prefix = prefix
        self._trigger = trigger_module.get_trigger(trigger)
        self._summary = reporter.DictSummary()
        self._skip_nan_params = skip_nan_params

    def __call__(self, trainer):
        statistics = {}
        prefix = self._prefix + '/' if self._prefix else ''
        for link in self._links:
            link_name = getattr(link, 'name', 'None')
            for param_name, param in link.namedparams():
                for attr_name in self._attrs:
                    array = getattr(param, attr_name)
                    if array is None:
                        continue
                    params = array.ravel()
                    for function_name, function in self._statistics.items():
                        if self._skip_nan_params and _xp(params).isnan(params).any():
                            value = numpy.nan
                        else:
                            value = function(params)
                        key = self.report_key_template.format(
                            prefix=prefix, link_name=link_name, param_name=param_name,
                            attr_name=attr_name, function_name=function_name)
                        if getattr(value, 'ndim', 0) > 0 and value.size > 1:
                            for i, v in enumerate(value):
                                statistics['{}/{}'.format(key, i)] = v
                        else:
                            statistics[key] = value
        self._summary.add(statistics)
        if self._trigger(trainer):
            reporter.report(self._summary.compute_mean())
            self._summary = reporter.DictSummary()

    def register_statistics(self, name, function):
        """Add a statistic `function(flat array)` reported under `name`."""
        self._statistics[name] = function
