"""Rich output in Jupyter: how the reporting extensions find out that they write to a
notebook cell, and a text output that is updated in place."""
import sys


def is_kernel_stream(out):
    """True when `out` is the standard output or error of a running Jupyter kernel
    (ipykernel), whose cell outputs can show rich displays.

    False on a terminal, for a file, a pipe or a `StringIO`, in a plain `python` or
    a terminal IPython, and whenever IPython/ipykernel are not already imported (they
    are never imported here).
    """
    iostream = sys.modules.get('ipykernel.iostream')
    if iostream is None or not isinstance(out, iostream.OutStream):
        return False
    ipython = sys.modules.get('IPython')
    shell = ipython.get_ipython() if ipython is not None else None
    return shell is not None and getattr(shell, 'kernel', None) is not None


class TextDisplay:
    """A file-like sink whose text is one output of the current notebook cell,
    replaced as a whole at each `flush()` (IPython's `display(...,
    display_id=True)` and `DisplayHandle.update`) instead of growing line by line.

    Terminal control sequences (`ESC[J`) written to it are dropped.
    """

    def __init__(self):
        self._chunks = []
        self._handle = None
        self._shown = None

    def write(self, text):
        self._chunks.append(text.replace('\033[J', ''))
        return len(text)

    def getvalue(self):
        """The text written so far."""
        return ''.join(self._chunks)

    def flush(self):
        """Show the text written so far, in place of what this output showed before."""
        text = self.getvalue()
        if text == self._shown:
            return
        from IPython import display
        data = {'text/plain': text.rstrip('\n')}
        if self._handle is None:
            self._handle = display.display(data, raw=True, display_id=True)
        else:
            self._handle.update(data, raw=True)
        self._shown = text

    def isatty(self):
        return False
