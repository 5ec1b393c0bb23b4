"""PrintReport: print selected entries of the LogReport's log as a table."""
import os
import sys
import warnings

from minichainer.training import extension
from minichainer.training.extensions import _notebook
from minichainer.training.extensions import log_report as log_report_module
from minichainer.training.extensions import util


class PrintReport(extension.Extension):
    """Trainer extension that prints new log entries of a LogReport.

    The layout is Chainer's: each column is `max(10, len(name))` wide, columns are
    separated by two spaces, values are formatted with `'{:<Wg}'` and a missing value
    is left blank.  The header is printed at the first call.  In a Jupyter notebook
    (`out` being the kernel's output) the same table is shown as one cell output that
    is updated in place as rows arrive.

    Args:
        entries (list of str): Keys to print, in order.
        log_report (str or LogReport): Name of the trainer's LogReport extension, or
            a LogReport instance driven by this extension.
        out: Stream to write to (default `sys.stdout`).

    Beyond Chainer: an entry that no printed row has held once a full epoch is
    trained (or, with an updater that has no `epoch_detail`, at the first report;
    at the latest when training ends) is named in one `UserWarning`, with the keys
    that were observed, since its column would stay empty for the whole run (a
    misspelt key, or one that no extension reports).
    """

    def __init__(self, entries, log_report='LogReport', out=sys.stdout):
        self._entries = entries
        self._log_report = log_report
        self._out = out
        self._log_len = 0
        self._seen = set()          # keys of the printed rows, until the check is made

        entry_widths = [max(10, len(s)) for s in entries]
        header = '  '.join(('{:%d}' % w for w in entry_widths)).format(*entries) + '\n'
        self._header = header
        templates = []
        for entry, w in zip(entries, entry_widths):
            templates.append((entry, '{:<%dg}  ' % w, ' ' * (w + 2)))
        self._templates = templates

    def __call__(self, trainer):
        out = self._out
        if self._header:
            if _notebook.is_kernel_stream(out):
                # In a Jupyter notebook the table is one cell output, updated in place.
                out = self._out = _notebook.TextDisplay()
            out.write(self._header)
            self._header = None

        log_report = self._log_report
        if isinstance(log_report, str):
            log_report = trainer.get_extension(log_report)
        elif isinstance(log_report, log_report_module.LogReport):
            log_report(trainer)
        else:
            raise TypeError('PrintReport: log_report must be the name of a LogReport '
                            'extension or a LogReport, got {}'.format(type(log_report)))

        log = log_report.log
        log_len = self._log_len
        while len(log) > log_len:
            if os.name == 'nt':
                util.erase_console(0, 0)
            else:
                out.write('\033[J')
            self._print(log[log_len])
            if self._seen is not None:
                self._seen.update(log[log_len])
            log_len += 1
        self._log_len = log_len
        if self._seen is not None and log_len:
            epoch_detail = getattr(trainer.updater, 'epoch_detail', None)
            if epoch_detail is None or epoch_detail >= 1:
                self._warn_unobserved()

    def finalize(self):
        """Make the never-observed-entry check if training ended before it was made."""
        if self._seen is not None and self._log_len:
            self._warn_unobserved()

    def _warn_unobserved(self):
        seen, self._seen = self._seen, None
        missing = [e for e in self._entries if e not in seen]
        if missing:
            warnings.warn(
                'PrintReport: {} never observed in the log so far, so {} column stays '
                'empty; keys observed: {}'.format(
                    ', '.join(repr(m) for m in missing),
                    'its' if len(missing) == 1 else 'their', sorted(seen)),
                UserWarning, stacklevel=2)

    def serialize(self, serializer):
        """Save or load the owned LogReport's state (when it is an instance)."""
        log_report = self._log_report
        if isinstance(log_report, log_report_module.LogReport):
            log_report.serialize(serializer['_log_report'])

    def _print(self, observation):
        out = self._out
        for entry, template, empty in self._templates:
            if entry in observation:
                out.write(template.format(observation[entry]))
            else:
                out.write(empty)
        out.write('\n')
        if hasattr(out, 'flush'):
            out.flush()
