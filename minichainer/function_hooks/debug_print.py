"""`PrintHook`: print the inputs (and output gradients) of every hooked call."""
import sys
import warnings

from minichainer import function_hook
from minichainer import backend, variable


class PrintHook(function_hook.FunctionHook):
    """Print debug information on the arguments of each forward and backward call.

    Before each hooked call it writes the function label, then
    `Variable.debug_print()` of every input array and, for backward, of every
    output gradient.

    Args:
        sep: Deprecated and ignored (a `DeprecationWarning` is issued if given).
        end (str): Appended to each printed block.
        file: Text stream to write to (default `sys.stdout`).
        flush (bool): Flush `file` after each call's information.
    """

    name = 'PrintHook'

    def __init__(self, sep=None, end='\n', file=sys.stdout, flush=True):
        if sep is not None:
            warnings.warn('sep argument in chainer.function_hooks.PrintHook is deprecated.',
                          DeprecationWarning)
        self.sep = sep
        self.end = end
        self.file = file
        self.flush = flush

    def _write(self, text):
        self.file.write(text + self.end)

    def _process(self, function, in_data, out_grad=None):
        self._write('function\t{}'.format(function.label))
        self._write('input data')
        for x in in_data:
            # inputs that were not retained arrive as None
            self._write('(removed)' if x is None else variable.Variable(x).debug_print())
        if out_grad is not None:
            self._write('output gradient')
            for gy in out_grad:
                if gy is None:
                    holder = variable.Variable()
                else:
                    holder = variable.Variable(
                        backend.get_array_module(gy).zeros_like(gy))
                    holder.grad = gy
                self._write(holder.debug_print())
        if self.flush and hasattr(self.file, 'flush'):
            self.file.flush()

    def forward_preprocess(self, function, in_data):
        self._process(function, in_data)

    def backward_preprocess(self, function, in_data, out_grad):
        self._process(function, in_data, out_grad)
