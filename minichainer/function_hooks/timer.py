"""``TimerHook``: wall-clock time spent in each function's forward and backward."""
import sys
import time

from minichainer import function_hook

_UNITS = ('sec', 'ms', 'us', 'ns')


def _function_name(function):
    # Chainer reports the implementation class (the wrapped class for old-style
    # Functions, whose node is a FunctionAdapter).
    name = getattr(function, '_impl_name', None)
    return type(function).__name__ if name is None else name


def _auto_unit(seconds):
    """(factor, unit) of the largest unit in which ``seconds`` is at least 1."""
    factor = 1
    for unit in _UNITS[:-1]:
        if seconds * factor >= 1:
            return factor, unit
        factor *= 1000.0
    return factor, _UNITS[-1]


class TimerHook(function_hook.FunctionHook):
    """Measure the elapsed time of every hooked function call.

    Use it as ``with TimerHook() as hook: ...`` (all functions of the thread) or
    ``node.add_hook(hook)``, then read :meth:`summary`, :meth:`total_time` or
    :meth:`print_report`.

    Attributes:
        call_history (list): ``(function name, seconds)`` per forward or backward
            call, in completion order.
    """

    name = 'TimerHook'
    table = {'sec': 1, 'ms': 10 ** 3, 'us': 10 ** 6, 'ns': 10 ** 9}

    def __init__(self):
        self.call_history = []
        self._running_stack = []
        self._depth = 0
        self._total_time = 0

    def _preprocess(self):
        self._running_stack.append(time.perf_counter())
        self._depth += 1

    def _postprocess(self, function):
        elapsed = time.perf_counter() - self._running_stack.pop()
        self.call_history.append((_function_name(function), elapsed))
        self._depth -= 1
        if self._depth == 0:  # nested calls are already inside the outer one
            self._total_time += elapsed

    def forward_preprocess(self, function, in_data):
        self._preprocess()

    def backward_preprocess(self, function, in_data, out_grad):
        self._preprocess()

    def forward_postprocess(self, function, in_data):
        self._postprocess(function)

    def backward_postprocess(self, function, in_data, out_grad):
        self._postprocess(function)

    def total_time(self):
        """Seconds spent in the outermost hooked calls (nested calls counted once)."""
        return self._total_time

    def summary(self):
        """Dict ``function name -> {'elapsed_time': seconds, 'occurrence': calls}``,
        in order of first appearance."""
        summary = {}
        for function_name, elapsed in self.call_history:
            record = summary.get(function_name)
            if record is None:
                summary[function_name] = {'elapsed_time': elapsed, 'occurrence': 1}
            else:
                record['elapsed_time'] += elapsed
                record['occurrence'] += 1
        return summary

    def print_report(self, unit='auto', file=sys.stdout):
        """Write a table ``FunctionName  ElapsedTime  Occurrence`` to ``file``.

        Args:
            unit (str): ``'sec'``, ``'ms'``, ``'us'``, ``'ns'``, ``'auto'`` (one
                unit for all rows, chosen from the largest time) or
                ``'auto_foreach'`` (a unit chosen per row).
            file: Text stream to write to.
        """
        if unit not in self.table and unit not in ('auto', 'auto_foreach'):
            raise ValueError(
                'TimerHook.print_report: unit must be one of {}, \'auto\' or '
                '\'auto_foreach\', got {!r}'.format(', '.join(map(repr, _UNITS)), unit))
        summary = self.summary()
        if unit == 'auto':
            if not summary:
                raise ValueError('TimerHook.print_report: no function call has been '
                                 'recorded yet (call_history is empty)')
            factor, unit = _auto_unit(max(r['elapsed_time'] for r in summary.values()))
        elif unit != 'auto_foreach':
            factor = self.table[unit]
        rows = [('FunctionName', 'ElapsedTime', 'Occurrence')]
        for function_name, record in summary.items():
            seconds = record['elapsed_time']
            if unit == 'auto_foreach':
                row_factor, row_unit = _auto_unit(seconds)
            else:
                row_factor, row_unit = factor, unit
            rows.append((function_name, '%3.2f%s' % (seconds * row_factor, row_unit),
                         str(record['occurrence'])))
        widths = [max(len(row[i]) for row in rows) for i in range(3)]
        for row in rows:
            file.write('  '.join(cell.rjust(w) for cell, w in zip(row, widths)))
            file.write('\n')
        if hasattr(file, 'flush'):
            file.flush()
