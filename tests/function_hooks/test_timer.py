"""function_hooks.TimerHook: call history, nesting, summary and report formatting."""
import io
import re
import time

import numpy
import pytest

import minichainer
import minichainer.functions as F
from minichainer import function_hooks
from minichainer.function_hooks import timer
from minichainer.functions.math import exponential


def _x():
    return minichainer.Variable(numpy.linspace(-1, 1, 6, dtype=numpy.float32).reshape(2, 3))


def test_name_and_package_exports():
    assert function_hooks.TimerHook is timer.TimerHook
    assert function_hooks.TimerHook.name == 'TimerHook'
    assert minichainer.function_hooks.TimerHook is timer.TimerHook


def test_forward_and_backward_history_with_context():
    x = _x()
    hook = function_hooks.TimerHook()
    with hook:
        y = F.exp(x)
    assert [name for name, _ in hook.call_history] == ['Exp']
    assert isinstance(hook.call_history[0][1], float) and hook.call_history[0][1] >= 0
    y.grad = numpy.ones_like(y.array)
    with hook:
        y.backward()
    names = [name for name, _ in hook.call_history]
    assert names[0] == 'Exp' and names[-1] == 'Exp' and len(names) >= 2
    # hooks are removed on exit
    F.exp(x)
    assert len(hook.call_history) == len(names)


def test_node_local_hook_and_old_style_function_name():
    hook = function_hooks.TimerHook()
    node = exponential.Exp()
    node.add_hook(hook)
    y, = node.apply((_x(),))
    assert [n for n, _ in hook.call_history] == ['Exp']

    class Twice(minichainer.Function):
        def forward(self, inputs):
            return inputs[0] * 2,

        def backward(self, inputs, grads):
            return grads[0] * 2,

    with hook:
        Twice()(_x())
    # an old-style Function is reported by its own class name, not the adapter's
    assert hook.call_history[-1][0] == 'Twice'


def test_nested_calls_count_once_in_total_time():
    hook = function_hooks.TimerHook()
    outer, inner = object(), object()
    hook.backward_preprocess(outer, (), ())
    t0 = time.perf_counter()
    hook.forward_preprocess(inner, ())
    time.sleep(0.002)
    hook.forward_postprocess(inner, ())
    t1 = time.perf_counter()
    hook.backward_postprocess(outer, (), ())
    assert [name for name, _ in hook.call_history] == ['object', 'object']
    inner_time, outer_time = hook.call_history[0][1], hook.call_history[1][1]
    assert 0.002 <= inner_time <= t1 - t0
    assert outer_time >= inner_time
    # only the outermost call adds to the total
    assert hook.total_time() == pytest.approx(outer_time)
    assert hook._depth == 0 and hook._running_stack == []


def test_summary_aggregates_in_first_seen_order():
    hook = function_hooks.TimerHook()
    hook.call_history = [('Exp', 0.5), ('Sum', 0.25), ('Exp', 1.0)]
    summary = hook.summary()
    assert list(summary) == ['Exp', 'Sum']
    assert summary['Exp'] == {'elapsed_time': 1.5, 'occurrence': 2}
    assert summary['Sum'] == {'elapsed_time': 0.25, 'occurrence': 1}


def _report(hook, **kwargs):
    out = io.StringIO()
    hook.print_report(file=out, **kwargs)
    return out.getvalue()


def test_print_report_units():
    hook = function_hooks.TimerHook()
    hook.call_history = [('LinearFunction', 0.0123), ('ReLU', 0.0000045), ('ReLU', 0.000001)]
    # auto: one unit (from the largest time) for all rows; right-aligned columns
    assert _report(hook) == (
        '  FunctionName  ElapsedTime  Occurrence\n'
        'LinearFunction      12.30ms           1\n'
        '          ReLU       0.01ms           2\n')
    assert _report(hook, unit='auto_foreach').splitlines()[2].split() == [
        'ReLU', '5.50us', '2']
    assert _report(hook, unit='sec').splitlines()[1].split()[1] == '0.01sec'
    assert _report(hook, unit='ns').splitlines()[2].split()[1] == '5500.00ns'
    hook.call_history = [('Tiny', 5e-10)]
    assert _report(hook).splitlines()[1].split()[1] == '0.50ns'
    hook.call_history = [('Slow', 2.0)]
    assert _report(hook).splitlines()[1].split()[1] == '2.00sec'


def test_print_report_of_real_calls_matches_chainer_layout():
    hook = function_hooks.TimerHook()
    with hook:
        F.exp(_x())
        F.exp(_x())
    pattern = r'\AFunctionName  ElapsedTime  Occurrence\n +Exp +[0-9.]+(sec|ms|us|ns) +2\n\Z'
    assert re.match(pattern, _report(hook))


def test_print_report_bad_unit_and_empty_history():
    hook = function_hooks.TimerHook()
    with pytest.raises(ValueError, match='call_history is empty'):
        hook.print_report(file=io.StringIO())
    hook.call_history = [('Exp', 1.0)]
    with pytest.raises(ValueError, match="unit must be one of .*got 'min'"):
        hook.print_report(unit='min', file=io.StringIO())


def test_same_hook_twice_in_context_raises():
    hook = function_hooks.TimerHook()
    with hook:
        with pytest.raises(KeyError):
            with function_hooks.TimerHook():
                pass
