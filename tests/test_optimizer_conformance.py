"""Optimizer-core behaviours checked against Chainer 7.8.1 (hook dispatch, setup checks,
``is_elementwise``)."""
import numpy
import pytest

import minichainer
from minichainer import optimizer
from minichainer import optimizers


class _Link(minichainer.Link):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.p = minichainer.Parameter(numpy.arange(3, dtype=numpy.float32))
        self.p.grad = numpy.ones(3, dtype=numpy.float32)


def test_builtin_update_rules_are_elementwise():
    assert optimizer.UpdateRule.is_elementwise is False
    for name in ['AdaDelta', 'AdaGrad', 'Adam', 'CorrectedMomentumSGD', 'MomentumSGD',
                 'MSVAG', 'NesterovAG', 'RMSprop', 'RMSpropGraves', 'SGD', 'SMORMS3']:
        rule = getattr(optimizers, name)().create_update_rule()
        assert rule.is_elementwise is True, name


def test_call_hooks_goes_through_overridable_call_hook():
    calls = []

    class Recording(optimizers.SGD):
        def call_hook(self, hook):
            calls.append(hook.name)
            super().call_hook(hook)

    def h(opt):
        h.seen = opt
    h.name = 'h'
    h.timing = 'pre'
    opt = Recording().setup(_Link())
    opt.add_hook(h)
    opt.update()
    assert calls == ['h']
    assert h.seen is opt


def test_gradient_method_call_hook_reallocates_cleared_grads():
    link = _Link()
    opt = optimizers.SGD().setup(link)

    def clear(o):
        o.target.p.cleargrad()
    opt.call_hook(clear)
    numpy.testing.assert_array_equal(link.p.grad, numpy.zeros(3, numpy.float32))


def test_remove_and_call_hooks_before_setup_raise_runtime_error():
    opt = optimizers.SGD()
    with pytest.raises(RuntimeError, match='setup'):
        opt.remove_hook('x')
    with pytest.raises(RuntimeError, match='setup'):
        opt.call_hooks()


def test_update_rule_auto_timing_with_invalid_attribute_runs_after_update():
    rule = optimizers.SGD(lr=1).create_update_rule()
    seen = []

    def hook(r, param):
        seen.append(param.array.copy())
    hook.timing = 'neither'
    rule.add_hook(hook)
    p = minichainer.Parameter(numpy.zeros(2, dtype=numpy.float32))
    p.grad = numpy.ones(2, dtype=numpy.float32)
    rule.update(p)
    numpy.testing.assert_array_equal(seen[0], [-1, -1])  # after the update
