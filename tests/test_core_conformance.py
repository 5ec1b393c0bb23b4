"""Conformance checks against Chainer 7.8.1 behaviour for the autodiff core."""
import io

from minichainer import configuration


def test_config_show_pads_key_with_single_space():
    g = configuration.GlobalConfig()
    local = configuration.LocalConfig(g)
    g.x = 'gx'
    local.abc = 1
    out = io.StringIO()
    local.show(out)
    assert out.getvalue() == 'abc 1\nx   gx\n'
    out = io.StringIO()
    g.show(out)
    assert out.getvalue() == 'x gx\n'


import numpy
import pytest

import minichainer
from minichainer import FunctionNode, Variable


def _var(value):
    return Variable(numpy.array(value, numpy.float32))


class _Identity(FunctionNode):
    def forward(self, inputs):
        return inputs


def test_instance_check_type_forward_is_called():
    calls = []
    f = _Identity()
    f.check_type_forward = lambda in_types: calls.append(len(in_types))
    f.apply((numpy.ones(2, numpy.float32),))
    assert calls == [1]


class _ReturnsGrads(FunctionNode):
    def __init__(self, grads):
        self.grads = grads

    def forward(self, inputs):
        return numpy.ones(1, numpy.float32),

    def backward(self, indexes, grad_outputs):
        return self.grads


@pytest.mark.parametrize('grads, debug, pattern', [
    ((_var([1.]), _var([1.])), False, 'number of gradients returned from backward is incorrect'),
    ((), False, 'number of gradients returned from backward is incorrect'),
    ((_var([1., 2.]),), True, 'shape of gradients returned from backward is incorrect'),
    ((Variable(numpy.ones(1, numpy.int64)),), True,
     'dtype of gradients returned from backward is incorrect'),
    ((numpy.ones(1, numpy.float32),), True,
     'type of gradients returned from backward is incorrect'),
])
def test_bad_backward_gradients_raise_value_error(grads, debug, pattern):
    x = _var([1.])
    y, = _ReturnsGrads(grads).apply((x,))
    y.grad = numpy.ones_like(y.array)   # not the one-element-as-scalar deprecation
    with minichainer.using_config('debug', debug):
        with pytest.raises(ValueError, match=pattern):
            y.backward()


def test_grad_rejects_non_sequence_grad_arguments():
    x = _var([1., 2.])
    y = x * x
    g = _var([1., 1.])
    with pytest.raises(TypeError):
        minichainer.grad([y], [x], [g], g)
    with pytest.raises(TypeError):
        minichainer.grad([y], [x], g, [g])


def test_grad_inputs_propagate_through_intermediate_inputs():
    x1 = _var(1.)
    x2 = x1 * 2.
    y = x2 * 3.
    gx1, gx2 = minichainer.grad([y], [x1, x2], [_var(1.)], [_var(1000.), _var(100.)])
    # dy/dx2 = 3, plus the initial 100, flows to x1 through x2 (x2 = 2 * x1)
    assert float(gx2.array) == 103.
    assert float(gx1.array) == 1000. + 2. * 103.


def test_bad_backward_gradient_outside_debug_mode():
    x = _var([1.])
    y, = _ReturnsGrads((Variable(numpy.ones(1, numpy.int64)),)).apply((x,))
    y.grad = numpy.ones_like(y.array)
    with pytest.raises(TypeError, match='_ReturnsGrads'):
        y.backward()
    y, = _ReturnsGrads((_var([1., 2.]),)).apply((x,))
    y.grad = numpy.ones_like(y.array)
    with pytest.raises(ValueError, match='_ReturnsGrads'):
        y.backward()


class _AddAccumulate(FunctionNode):
    """x + y whose backward_accumulate adds the incoming input gradients itself."""

    def __init__(self):
        self.seen = None

    def forward(self, inputs):
        return inputs[0] + inputs[1],

    def backward_accumulate(self, indexes, grad_outputs, grad_inputs):
        self.seen = grad_inputs
        gy, = grad_outputs
        return tuple(gy if g is None else gy + g for g in grad_inputs)


def test_overridden_backward_accumulate_is_used_with_leaf_grads():
    x = Variable(numpy.array([1., 2.], numpy.float32))
    x.grad = numpy.array([10., 20.], numpy.float32)
    w = Variable(numpy.array([3., 4.], numpy.float32))
    f = _AddAccumulate()
    y, = f.apply((x, w))
    y.grad = numpy.ones(2, numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, [11., 21.])
    numpy.testing.assert_array_equal(w.grad, [1., 1.])
    assert f.seen[1] is None


def test_variable_comparisons_and_bool_raise_type_error():
    a = _var([1., 2.])
    for op in (lambda: a < a, lambda: a == a, lambda: a != a, lambda: a >= a, lambda: bool(a)):
        with pytest.raises(TypeError):
            op()


def test_variable_chainer_internal_helpers():
    x = Variable._init_unchecked(numpy.ones(2, numpy.float32))
    assert x._has_chainerx_array is False
    assert isinstance(x.node, minichainer.variable.VariableNode)
    with pytest.raises(ValueError):
        minichainer.variable.VariableNode(Variable(), '', grad=None)
    p = minichainer.Parameter(shape=(2,))
    assert p._grad is p.grad


def test_debug_print_of_empty_variable():
    text = Variable().debug_print()
    for part in ('device: None', 'backend: None', 'grad: None'):
        assert part in text


def test_zerograd_unchains_grad_and_warns_for_uninitialized_parameter():
    x = _var([1., 2.])
    x.grad_var = Variable(numpy.ones(2, numpy.float32))
    x.grad_var.creator_node = FunctionNode()
    with pytest.warns(DeprecationWarning):
        x.zerograd()
    assert x.grad_var.creator_node is None
    p = minichainer.Parameter()
    with pytest.warns(DeprecationWarning):
        p.zerograd()


def test_creator_of_fresh_old_style_function():
    v = Variable()
    f = minichainer.Function()
    v.creator = f
    assert v.creator is f
    assert v.rank == 1


class _OldIdentity(minichainer.Function):
    def forward(self, inputs):
        return inputs

    def backward(self, inputs, grad_outputs):
        return grad_outputs


def test_old_style_gradient_cannot_be_differentiated_again():
    x = Variable(numpy.zeros((), numpy.float32))
    y = _OldIdentity()(x)
    y.backward(retain_grad=True, enable_double_backprop=True)
    with pytest.raises(RuntimeError):
        x.grad_var.backward()
    with pytest.raises(RuntimeError):
        minichainer.grad([x.grad_var], [y.grad_var])


def test_instance_check_type_forward_of_old_style_function_is_called():
    calls = []
    f = minichainer.Function()
    f.check_type_forward = lambda in_types: calls.append(len(in_types))
    f.forward_cpu = lambda inputs: (inputs[0],)
    f(numpy.ones(2, numpy.float32))
    assert calls == [1]
