"""``TimerHook``: measures the time spent in each link's forward."""
import collections
import sys
import time

from minichainer import link_hook


class TimerHook(link_hook.LinkHook):
    """Record the elapsed time of every link's forward call.

    ``call_history`` is a list of ``(link class name, seconds)``.
    """

    name = 'TimerHook'
    table = {'sec': 1, 'ms': 10 ** 3, 'us': 10 ** 6, 'ns': 10 ** 9}

    def __init__(self):
        self.call_history = []
        self._running_stack = []
        self._depth = 0
        self._total_time = 0

    def forward_preprocess(self, args):
        self._running_stack.append(time.perf_counter())
        self._depth += 1

    def forward_postprocess(self, args):
        elapsed = time.perf_counter() - self._running_stack.pop()
        self._depth -= 1
        self.call_history.append((type(args.link).__name__, elapsed))
        if self._depth == 0:
            self._total_time += elapsed

    def total_time(self):
        """Total time of the outermost forward calls, in seconds."""
        return self._total_time

    def summary(self):
        """Ordered dict: link class name -> {'elapsed_time': seconds, 'occurrence': n}."""
        summary = collections.OrderedDict()
        for name, elapsed in self.call_history:
            entry = summary.setdefault(name, {'elapsed_time': 0, 'occurrence': 0})
            entry['elapsed_time'] += elapsed
            entry['occurrence'] += 1
        return summary

    def _choose_unit(self, second):
        """``(factor, unit)``: the largest of sec/ms/us in which ``second`` is >= 1,
        else ns."""
        factor = 1
        for unit in ('sec', 'ms', 'us'):
            if second * factor >= 1:
                return factor, unit
            factor *= 1000.0
        return factor, 'ns'

    def print_report(self, unit='auto', file=sys.stdout):
        """Write a table ``LinkName  ElapsedTime  Occurrence`` to ``file``.

        Args:
            unit (str): ``'sec'``, ``'ms'``, ``'us'``, ``'ns'``, ``'auto'`` (one unit
                for all rows, chosen from the largest time) or ``'auto_foreach'``
                (a unit chosen per row).
            file: Text stream to write to.

        Raises:
            ValueError: unknown ``unit``, or ``'auto'`` with nothing recorded.
        """
        if unit not in self.table and unit not in ('auto', 'auto_foreach'):
            raise ValueError(
                "TimerHook.print_report: unit must be one of 'sec', 'ms', 'us', 'ns', "
                "'auto' or 'auto_foreach', got {!r}".format(unit))
        summary = self.summary()
        if unit == 'auto':
            if not summary:
                raise ValueError('TimerHook.print_report: no link call has been recorded '
                                 'yet (call_history is empty)')
            factor, unit = self._choose_unit(
                max(r['elapsed_time'] for r in summary.values()))
        elif unit != 'auto_foreach':
            factor = self.table[unit]
        entries = [['LinkName', 'ElapsedTime', 'Occurrence']]
        for name, record in summary.items():
            seconds = record['elapsed_time']
            if unit == 'auto_foreach':
                row_factor, row_unit = self._choose_unit(seconds)
            else:
                row_factor, row_unit = factor, unit
            entries.append([name, '%3.2f%s' % (seconds * row_factor, row_unit),
                            str(record['occurrence'])])
        widths = [max(len(row[i]) for row in entries) for i in range(3)]
        for row in entries:
            file.write('  '.join(cell.rjust(w) for cell, w in zip(row, widths)) + '\n')
        file.flush()
