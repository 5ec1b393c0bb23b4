import numpy

import minichainer
from minichainer import function_hook


class _Recorder(minichainer.FunctionHook):
    name = 'Recorder'

    def __init__(self):
        self.calls = []

    def forward_preprocess(self, function, in_data):
        self.calls.append(('forward', function.label))

    def backward_preprocess(self, function, in_data, out_grad):
        self.calls.append(('backward', function.label))


def test_registered_hooks_counts_hooks_in_with_blocks():
    before = function_hook.registered_hooks.value
    hook = _Recorder()
    with hook:
        assert function_hook.registered_hooks.value == before + 1
        assert function_hook.get_function_hooks()['Recorder'] is hook
        x = minichainer.Variable(numpy.ones(3, numpy.float32))
        y = minichainer.functions.sum(x * 2)
        y.backward()
    assert function_hook.registered_hooks.value == before
    assert 'Recorder' not in function_hook.get_function_hooks()
    assert ('forward', '_ * 2.0') in hook.calls
    assert ('backward', 'Sum') in hook.calls
    numpy.testing.assert_array_equal(x.grad, numpy.full(3, 2, numpy.float32))
