"""`CallTimer`: the elapsed-time bookkeeping and report of the function and link
`TimerHook`s."""
import sys
import time

_UNITS = ('sec', 'ms', 'us', 'ns')


class CallTimer:
    """Records `(name, seconds)` per timed call and prints Chainer's report table.

    A hook calls `_start` before and `_stop` after each call; nested calls
    are recorded too but count once in `total_time`. Subclasses name what they
    time (`_kind`, `_name_column`) and how the report is flushed (`_flush`).

    Attributes:
        call_history (list): `(name, seconds)` per call, in completion order.
    """

    table = {'sec': 1, 'ms': 10 ** 3, 'us': 10 ** 6, 'ns': 10 ** 9}
    _kind = 'function'
    _name_column = 'FunctionName'
    _summary_type = dict

    def __init__(self):
        self.call_history = []
        self._running_stack = []
        self._depth = 0
        self._total_time = 0

    def _start(self):
        self._running_stack.append(time.perf_counter())
        self._depth += 1

    def _stop(self, name):
        elapsed = time.perf_counter() - self._running_stack.pop()
        self.call_history.append((name, elapsed))
        self._depth -= 1
        if self._depth == 0:  # nested calls are already inside the outer one
            self._total_time += elapsed

    def total_time(self):
        """Seconds spent in the outermost timed calls (nested calls counted once)."""
        return self._total_time

    def summary(self):
        """`name -> {'elapsed_time': seconds, 'occurrence': calls}`, in order of first
        appearance."""
        summary = self._summary_type()
        for name, elapsed in self.call_history:
            record = summary.get(name)
            if record is None:
                summary[name] = {'elapsed_time': elapsed, 'occurrence': 1}
            else:
                record['elapsed_time'] += elapsed
                record['occurrence'] += 1
        return summary

    def _choose_unit(self, second):
        """`(factor, unit)`: the largest of sec/ms/us in which `second` is >= 1,
        else ns."""
        factor = 1
        for unit in _UNITS[:-1]:
            if second * factor >= 1:
                return factor, unit
            factor *= 1000.0
        return factor, _UNITS[-1]

    def _flush(self, file):
        if hasattr(file, 'flush'):
            file.flush()

    def print_report(self, unit='auto', file=sys.stdout):
        """Write a table `<Name>  ElapsedTime  Occurrence` to `file`.

        Args:
            unit (str): `'sec'`, `'ms'`, `'us'`, `'ns'`, `'auto'` (one unit
                for all rows, chosen from the largest time) or `'auto_foreach'`
                (a unit chosen per row).
            file: Text stream to write to.

        Raises:
            ValueError: unknown `unit`, or `'auto'` with nothing recorded.
        """
        if unit not in self.table and unit not in ('auto', 'auto_foreach'):
            raise ValueError(
                'TimerHook.print_report: unit must be one of {}, \'auto\' or '
                '\'auto_foreach\', got {!r}'.format(', '.join(map(repr, _UNITS)), unit))
        summary = self.summary()
        if unit == 'auto':
            if not summary:
                raise ValueError('TimerHook.print_report: no {} call has been recorded '
                                 'yet (call_history is empty)'.format(self._kind))
            factor, unit = self._choose_unit(
                max(r['elapsed_time'] for r in summary.values()))
        elif unit != 'auto_foreach':
            factor = self.table[unit]
        rows = [(self._name_column, 'ElapsedTime', 'Occurrence')]
        for name, record in summary.items():
            seconds = record['elapsed_time']
            if unit == 'auto_foreach':
                row_factor, row_unit = self._choose_unit(seconds)
            else:
                row_factor, row_unit = factor, unit
            rows.append((name, '%3.2f%s' % (seconds * row_factor, row_unit),
                         str(record['occurrence'])))
        widths = [max(len(row[i]) for row in rows) for i in range(3)]
        for row in rows:
            file.write('  '.join(cell.rjust(w) for cell, w in zip(row, widths)) + '\n')
        self._flush(file)
