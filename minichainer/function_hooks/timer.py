"""`TimerHook`: wall-clock time spent in each function's forward and backward."""
from minichainer import function_hook
from minichainer.function_hooks.call_timer import CallTimer


def _function_name(function):
    # Chainer reports the implementation class (the wrapped class for old-style
    # Functions, whose node is a FunctionAdapter).
    name = getattr(function, '_impl_name', None)
    return type(function).__name__ if name is None else name


class TimerHook(CallTimer, function_hook.FunctionHook):
    """Measure the elapsed time of every hooked function call.

    Use it as `with TimerHook() as hook: ...` (all functions of the thread) or
    `node.add_hook(hook)`, then read `summary`, `total_time` or
    `print_report`.

    Attributes:
        call_history (list): `(function name, seconds)` per forward or backward
            call, in completion order.
    """

    name = 'TimerHook'

    def forward_preprocess(self, function, in_data):
        self._start()

    def backward_preprocess(self, function, in_data, out_grad):
        self._start()

    def forward_postprocess(self, function, in_data):
        self._stop(_function_name(function))

    def backward_postprocess(self, function, in_data, out_grad):
        self._stop(_function_name(function))
