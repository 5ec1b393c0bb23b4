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

    def print_report(self, unit='auto', file=sys.stdout):
        """Print a table of time spent per link class."""
        entries = [['LinkName', 'ElapsedTime', 'Occurrence']]
        for name, record in self.summary().items():
            entries.append([name, '{:.6f}sec'.format(record['elapsed_time']),
                            str(record['occurrence'])])
        widths = [max(len(row[i]) for row in entries) for i in range(3)]
        for row in entries:
            file.write('  '.join(cell.rjust(w) for cell, w in zip(row, widths)) + '\n')
