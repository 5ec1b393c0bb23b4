import gc
import sys
import weakref

import numpy
import pytest

import minichainer
import minichainer.functions as F
from minichainer import Variable


def _scalar(v):
    return Variable(numpy.array(v, numpy.float64))


def test_diamond_graph():
    x = _scalar(2.0)
    a = x ** 2
    y = a ** 2 + a ** 2
    y.backward()
    assert float(x.grad) == 64.0


def test_shared_input_gradients_accumulate():
    x = _scalar(3.0)
    y = x * x + x
    y.backward()
    assert float(x.grad) == 7.0


def test_grad_accumulates_across_backward_calls():
    x = _scalar(3.0)
    (x * 2).backward()
    (x * 5).backward()
    assert float(x.grad) == 7.0
    x.cleargrad()
    (x * 5).backward()
    assert float(x.grad) == 5.0


def test_leaf_grads_are_not_aliased():
    x = Variable(numpy.ones(3, numpy.float32))
    w = Variable(numpy.ones(3, numpy.float32))
    y = x + w
    gy = numpy.ones(3, numpy.float32)
    y.grad = gy
    y.backward()
    assert x.grad is not w.grad
    assert x.grad is not gy
    x.grad += 1
    numpy.testing.assert_array_equal(w.grad, 1)
    numpy.testing.assert_array_equal(gy, 1)


def test_retain_grad():
    x = _scalar(2.0)
    h = x * 3
    y = h * h
    y.backward()
    # As Chainer: without retain_grad the intermediate and the starting gradients are
    # not kept; the leaves get theirs.
    assert h.grad is None and y.grad is None
    assert float(x.grad) == 36.0
    x.cleargrad()
    y.backward(retain_grad=True)
    assert float(y.grad) == 1.0
    assert float(h.grad) == 12.0
    assert float(x.grad) == 36.0
    leaf = _scalar(3.0)
    leaf.backward()
    assert float(leaf.grad) == 1.0


def test_non_scalar_without_grad_raises():
    x = Variable(numpy.ones(3, numpy.float32))
    y = x * 2
    with pytest.raises(ValueError, match='shape \\(3,\\)'):
        y.backward()


def test_non_scalar_without_grad_is_a_no_op_when_nothing_needs_a_gradient():
    # Chainer's backward then calls no backward at all (nothing requires a gradient).
    class NoBackward(minichainer.FunctionNode):
        def forward(self, inputs):
            return inputs[0] * 2,

        def backward(self, indexes, grad_outputs):
            raise AssertionError('backward must not be called')

    x = Variable(numpy.ones(3, numpy.float32))
    y, = NoBackward().apply((x,))
    x.node._requires_grad = False
    y.backward()
    assert x.grad is None


def test_debug_mode_names_where_a_function_with_a_failing_backward_was_applied():
    class BadGrad(minichainer.Function):
        def forward(self, inputs):
            return numpy.ones((), numpy.float32),

        def backward(self, inputs, grads):
            return numpy.ones(2, numpy.float32),

    x = Variable(numpy.ones(1, numpy.float32))
    with minichainer.using_config('debug', True):
        y = BadGrad()(x)  # the line the message must show
        line = sys._getframe().f_lineno - 1
        with pytest.raises(ValueError) as info:
            y.backward()
    message = str(info.value)
    assert 'Stacktrace of the function is below' in message
    assert 'line {}'.format(line) in message
    y = BadGrad()(x)  # outside debug mode: no stack is recorded
    with pytest.raises(ValueError) as info:
        y.backward()
    assert 'Stacktrace' not in str(info.value)


def test_grad_of_an_old_style_gradient_raises_before_checking_inputs():
    class Identity(minichainer.Function):
        def forward(self, inputs):
            return inputs[0].copy(),

        def backward(self, inputs, grads):
            return grads

    x = Variable(numpy.array(42, numpy.float32))
    y = Identity()(x)
    y.backward(enable_double_backprop=True)
    with pytest.raises(RuntimeError, match='twice-differentiate'):
        minichainer.grad([x.grad_var], [y.grad_var])  # y.grad_var is None here


def test_empty_output_backward_is_a_no_op():
    v = Variable(numpy.empty((0,), numpy.float32))
    (v * 2).backward()
    assert v.grad.shape == (0,)


def test_size_one_output_gets_ones():
    x = Variable(numpy.ones((1, 1), numpy.float32))
    y = x * 3
    with pytest.warns(DeprecationWarning, match='only one element'):
        y.backward(retain_grad=True)
    numpy.testing.assert_array_equal(y.grad, [[1]])
    numpy.testing.assert_array_equal(x.grad, [[3]])


def test_loss_scale():
    x = _scalar(2.0)
    y = x * 3
    y.backward(loss_scale=8.0)
    assert float(x.grad) == 24.0
    assert x._loss_scale == 8.0


def test_double_backprop_cube():
    x = _scalar(2.0)
    y = x ** 3
    y.backward(enable_double_backprop=True)
    gx = x.grad_var
    assert float(gx.array) == 12.0
    assert gx.creator is not None
    x.cleargrad()
    gx.backward()
    assert float(x.grad) == 12.0


def test_no_double_backprop_by_default():
    x = _scalar(2.0)
    (x ** 3).backward()
    assert x.grad_var.creator is None


def test_no_backprop_mode_builds_no_graph():
    x = Variable(numpy.ones(3, numpy.float32))
    with minichainer.no_backprop_mode():
        y = x * 2
        z = F.square(y)
    assert y.creator is None and z.creator is None
    assert y.requires_grad  # as in Chainer, the flag is propagated


def test_backprop_stops_at_variable_made_without_graph():
    x = _scalar(2.0)
    with minichainer.no_backprop_mode():
        h = x * 3
    y = h * h
    y.backward()
    assert float(h.grad) == 12.0
    assert x.grad is None


def test_force_backprop_mode():
    x = _scalar(2.0)
    with minichainer.no_backprop_mode():
        with minichainer.force_backprop_mode():
            y = x * 3
    assert y.creator is not None


def test_requires_grad_false_gets_no_grad():
    x = Variable(numpy.ones(3, numpy.float32), requires_grad=False)
    w = Variable(numpy.ones(3, numpy.float32))
    y = F.sum(x * w)
    y.backward()
    assert x.grad is None
    numpy.testing.assert_array_equal(w.grad, 1)


def test_graph_freed_by_refcount_alone():
    gc.collect()
    gc.disable()
    try:
        x = Variable(numpy.ones(10, numpy.float32))
        h = F.square(x)
        y = F.sum(h * 2)
        node_ref = weakref.ref(h.node)
        func_ref = weakref.ref(h.creator_node)
        sum_ref = weakref.ref(y.creator_node)
        y.backward()
        del h
        assert node_ref() is not None  # still referenced by the graph behind y
        del y
        assert node_ref() is None
        assert func_ref() is None
        assert sum_ref() is None
    finally:
        gc.enable()


def test_no_reference_cycles_in_training_like_loop():
    gc.collect()
    gc.disable()
    try:
        before = len(gc.get_objects())
        w = Variable(numpy.ones((4, 4), numpy.float32))
        for _ in range(20):
            x = Variable(numpy.ones((2, 4), numpy.float32))
            loss = F.sum(F.matmul(x, w) ** 2)
            w.cleargrad()
            loss.backward()
        del x, loss
        after = len(gc.get_objects())
        assert gc.collect() == 0
        assert after - before < 50
    finally:
        gc.enable()


def test_minichainer_backward_multiple_outputs():
    x = _scalar(2.0)
    y1 = x * 3
    y2 = x * x
    y1.grad = numpy.array(1.0, numpy.float64)
    y2.grad = numpy.array(1.0, numpy.float64)
    minichainer.backward([y1, y2])
    assert float(x.grad) == 7.0
    assert y1.grad is None and y2.grad is None  # consumed, as in Chainer


def test_minichainer_backward_sets_no_default_grad():
    # chainer.backward makes no default gradient, even for a scalar: it warns and skips
    x = _scalar(2.0)
    y = x * 3
    with pytest.warns(RuntimeWarning, match='without grad, or duplicate outputs'):
        minichainer.backward([y])
    assert x.grad is None


def test_minichainer_backward_duplicated_outputs_warn():
    # the second occurrence finds its grad consumed: Chainer warns and uses it once
    x = _scalar(0.0)
    y = minichainer.functions.identity(x)
    y.grad = numpy.array(3.0, numpy.float64)
    with pytest.warns(RuntimeWarning, match='duplicate outputs'):
        minichainer.backward([y, y])
    assert float(x.grad) == 3.0


def test_minichainer_backward_rejects_chainer_unsupported_options():
    y = _scalar(1.0) * 2
    with pytest.raises(ValueError, match='retain_grad'):
        minichainer.backward([y], retain_grad=True)
    with pytest.raises(ValueError, match='loss_scale'):
        minichainer.backward([y], loss_scale=2.0)


def test_unchained_output_of_multi_output_function_passes_no_grad():
    x = Variable(numpy.arange(4, dtype=numpy.float32).reshape(2, 2))
    h0, h1 = minichainer.functions.split_axis(x, [1], axis=0)
    w = minichainer.functions.sum(h0) + minichainer.functions.sum(h1)
    h0.unchain()
    gx, = minichainer.grad([w], [x])
    numpy.testing.assert_array_equal(gx.array, [[0, 0], [1, 1]])


def test_minichainer_backward_with_grads():
    x = Variable(numpy.ones(2, numpy.float32))
    y = x * 3
    minichainer.backward([y], [Variable(numpy.array([1, 2], numpy.float32))])
    numpy.testing.assert_array_equal(x.grad, [3, 6])


class TestGrad:

    def test_basic(self):
        x = _scalar(2.0)
        w = _scalar(5.0)
        y = x * w + x
        gx, gw = minichainer.grad([y], [x, w])
        assert float(gx.array) == 6.0 and float(gw.array) == 2.0
        assert x.grad is None and w.grad is None

    def test_intermediate_input(self):
        x = _scalar(2.0)
        h = x * 3
        y = h * h
        gh, = minichainer.grad([y], [h])
        assert float(gh.array) == 12.0
        assert x.grad is None

    def test_set_grad_and_grad_inputs(self):
        x = _scalar(2.0)
        y = x * 4
        gx, = minichainer.grad([y], [x], grad_inputs=[_scalar(1.0)], set_grad=True)
        assert float(gx.array) == 5.0
        assert float(x.grad) == 5.0

    def test_unrelated_input_gives_none(self):
        x = _scalar(2.0)
        z = _scalar(1.0)
        gz, = minichainer.grad([x * 2], [z])
        assert gz is None

    def test_double_backprop(self):
        x = _scalar(3.0)
        y = x ** 3
        gx, = minichainer.grad([y], [x], enable_double_backprop=True)
        ggx, = minichainer.grad([gx], [x])
        assert float(gx.array) == 27.0 and float(ggx.array) == 18.0

    def test_non_scalar_output_starts_from_ones(self):
        x = Variable(numpy.ones(3, numpy.float32))
        gx, = minichainer.grad([x * 2], [x])
        numpy.testing.assert_array_equal(gx.array, [2, 2, 2])

    def test_grad_outputs(self):
        x = Variable(numpy.ones(2, numpy.float32))
        y = x * 2
        gx, = minichainer.grad([y], [x], grad_outputs=[numpy.array([1, 3], numpy.float32)])
        numpy.testing.assert_array_equal(gx.array, [2, 6])

    def test_bad_arguments(self):
        x = _scalar(1.0)
        with pytest.raises(TypeError):
            minichainer.grad(x, [x])
        with pytest.raises(TypeError):
            minichainer.grad([x], [numpy.ones(1)])
        with pytest.raises(ValueError):
            minichainer.grad([x], [x], grad_outputs=[None, None])


def test_double_backprop_through_a_function_that_passes_its_gradient_through():
    # F.copy / F.cast (same dtype) hand the incoming gradient array on unchanged; the
    # leaf's gradient must still be in the graph so that it can be differentiated again.
    import minichainer.functions as F
    for f in (lambda x: F.copy(x, -1), lambda x: F.cast(x, numpy.float32)):
        x = Variable(numpy.ones(2, numpy.float32))
        y = f(x)
        gy = Variable(numpy.ones(2, numpy.float32))
        y.grad_var = gy
        y.backward(enable_double_backprop=True)
        assert x.grad_var.creator is not None
        x.grad_var.grad = numpy.full(2, 3, numpy.float32)
        x.grad_var.backward()
        numpy.testing.assert_array_equal(gy.grad, [3, 3])
