"""Recompute-on-backward wrapper (`chainer.functions.forget`)."""
import minichainer
from minichainer import function_node
from minichainer import variable
from minichainer import _backprop
from minichainer.function import force_backprop_mode
from minichainer.function import no_backprop_mode


def _call_func(func, xs):
    outs = func(*xs)
    if isinstance(outs, tuple):
        for i, out in enumerate(outs):
            if isinstance(out, variable.Variable):
                continue
            n = i + 1
            suffix = {1: 'st', 2: 'nd', 3: 'rd'}.get(n if n < 20 else n % 10, 'th')
            raise RuntimeError(
                'forget: the {}{} element of the tuple returned by func is not a Variable, '
                'but {}'.format(n, suffix, type(out)))
    elif isinstance(outs, variable.Variable):
        outs = (outs,)
    else:
        raise RuntimeError(
            'forget: func must return a Variable or a tuple of Variables, but returned {}'
            .format(type(outs)))
    return outs


class Forget(function_node.FunctionNode):
    """Runs `func` without keeping its graph; recomputes it in backward."""

    def __init__(self, func):
        if not callable(func):
            raise TypeError('forget: func must be callable, got {!r}'.format(func))
        self.func = func

    def forward(self, inputs):
        self.retain_inputs(tuple(range(len(inputs))))
        with no_backprop_mode(), minichainer.using_config('_will_recompute', True):
            xs = [variable.Variable(x) for x in inputs]
            outs = _call_func(self.func, xs)
        return tuple(out.array for out in outs)

    def backward(self, indexes, grad_outputs):
        if minichainer.config.enable_backprop:
            raise RuntimeError('double backpropagation in functions.forget is not allowed.')

        inputs = self.get_retained_inputs()
        # Fresh leaves so the recomputed graph is disconnected from the outer one.
        dummy_inputs = tuple(variable.Variable(inp.array) for inp in inputs)
        with force_backprop_mode(), minichainer.using_config('in_recomputing', True):
            outs = _call_func(self.func, dummy_inputs)
            assert len(outs) == len(grad_outputs)

        # Backprop through the recomputed graph into every leaf it reaches: the dummy
        # inputs, whose gradients are returned, and also parameters used inside func
        # (e.g. a Link's W), whose .grad is accumulated as in Chainer.
        starts, start_grads = [], []
        for out, gy in zip(outs, grad_outputs):
            if gy is None:
                continue
            if out.creator_node is None:
                # func returned one of its inputs (or a leaf) unchanged
                if out.grad_var is None:
                    out.grad_var = gy
                else:
                    out.grad_var = out.grad_var + gy
                continue
            starts.append(out)
            start_grads.append(gy)
        if starts:
            _backprop.backward(starts, start_grads)
        return tuple(inp.grad_var for inp in dummy_inputs)


def forget(func, *xs):
    """Calls `func(*xs)` without storing its intermediate results.

    The forward pass of `func` runs in no-backprop mode, so only the inputs and outputs
    are kept; backward runs `func` again (with `config.in_recomputing` True) to get
    the gradients. `func` must be deterministic and return a Variable or a tuple of
    Variables. Double backpropagation through `forget` is not supported.

    Args:
        func (callable): A function of Variables returning a Variable or a tuple of them.
        *xs (Variable or ndarray): Its arguments; arrays are wrapped in
            Variables that require gradients.

    Returns:
        Variable or tuple: A Variable if `func` returned one output, else a
        tuple of Variables.

    Raises:
        TypeError: `func` is not callable.
        RuntimeError: `func` returned something other than Variables, or double backprop.
    """
    xs = tuple(x if isinstance(x, variable.Variable) else
               variable.Variable(x, requires_grad=True) for x in xs)
    y = Forget(func).apply(xs)
    if len(y) == 1:
        y, = y
    return y
