import gc
import weakref

import numpy
import pytest

import minichainer
import minichainer.functions as F
from minichainer import FunctionNode, Variable
from minichainer.utils import type_check


class Double(FunctionNode):
    def forward(self, inputs):
        return inputs[0] * 2,

    def backward(self, indexes, grad_outputs):
        return grad_outputs[0] * 2,


class MulAdd(FunctionNode):
    """y0 = a * b, y1 = a + b; retains inputs and the first output."""

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 2)
        type_check.argname(in_types, ('a', 'b'))
        a, b = in_types
        type_check.expect(a.dtype.kind == 'f', a.shape == b.shape)

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        self.retain_outputs((0,))
        a, b = inputs
        return a * b, a + b

    def backward(self, indexes, grad_outputs):
        a, b = self.get_retained_inputs()
        y0, = self.get_retained_outputs()
        g0, g1 = grad_outputs
        ga = (0 if g0 is None else g0 * b) + (0 if g1 is None else g1)
        gb = (0 if g0 is None else g0 * a) + (0 if g1 is None else g1)
        return ga, gb


def _arr(*shape, seed=0):
    return numpy.random.RandomState(seed).uniform(-1, 1, shape).astype(numpy.float32)


def test_apply_links_graph():
    x = Variable(_arr(3))
    f = Double()
    y, = f.apply((x,))
    assert y.creator_node is f
    assert f.inputs == (x.node,)
    assert f.outputs[0]() is y.node
    assert isinstance(f.outputs[0], weakref.ref)
    assert f.rank == 0 and y.rank == 1
    z, = Double().apply((y,))
    assert z.creator_node.rank == 1 and z.rank == 2
    assert f.label == 'Double'


def test_apply_accepts_arrays():
    y, = Double().apply((_arr(3),))
    numpy.testing.assert_allclose(y.array, _arr(3) * 2)
    assert not y.requires_grad
    # as in Chainer, the graph is linked even though no input needs a gradient
    assert isinstance(y.creator, Double)
    with minichainer.no_backprop_mode():
        z, = Double().apply((_arr(3),))
    assert z.creator is None


def test_apply_rejects_bad_inputs():
    with pytest.raises(TypeError, match='Double: inputs must be Variables'):
        Double().apply(([1.0, 2.0],))
    with pytest.raises(TypeError, match='MulAdd: inputs must be Variables'):
        MulAdd().apply((_arr(2), 1.0))
    with pytest.raises(ValueError, match='uninitialized'):
        Double().apply((Variable(),))


def test_forward_must_return_tuple_of_arrays():
    class Bad(FunctionNode):
        def forward(self, inputs):
            return inputs[0].sum()

    class BadElement(FunctionNode):
        def forward(self, inputs):
            return inputs[0].sum(),

    with pytest.raises(TypeError, match='tuple'):
        Bad().apply((_arr(3),))
    with pytest.raises(TypeError, match='force_array'):
        BadElement().apply((_arr(3),))


class _ScaleWithOptionalOffset(FunctionNode):
    # y1 = 3 * x (+ offset when given); y0 and y2 are left undefined (None).
    def forward(self, inputs):
        x, offset = inputs
        self.retain_inputs((0, 1))
        self.retain_outputs((1, 2))
        y = x * x.dtype.type(3)
        if offset is not None:
            y = y + offset
        return None, y, None

    def backward(self, indexes, grad_outputs):
        self.seen = (self.get_retained_inputs(), self.get_retained_outputs(), grad_outputs)
        return grad_outputs[1] * 3, None


def test_none_inputs_and_outputs_as_chainer():
    # Chainer wraps a None input in a Variable holding None (needing no gradient) and
    # turns a None output into a Variable holding None that gets no gradient.
    x = Variable(_arr(2))
    f = _ScaleWithOptionalOffset()
    y0, y1, y2 = f.apply((x, None))
    assert y0.array is None and y2.array is None
    numpy.testing.assert_allclose(y1.array, _arr(2) * 3)
    assert y0.creator_node is f and y1.creator_node is f
    y1.grad = numpy.ones(2, numpy.float32)
    y1.backward()
    numpy.testing.assert_allclose(x.grad, [3, 3])
    (x_ret, offset_ret), (y1_ret, y2_ret), (g0, g1, g2) = f.seen
    assert x_ret.array is x.array and offset_ret is None
    assert y1_ret.array is y1.array and y2_ret is None
    assert g0 is None and g2 is None and g1 is not None
    with minichainer.no_backprop_mode():
        z0, z1, z2 = _ScaleWithOptionalOffset().apply((x, None))
    assert z0.array is None and z1.creator is None


def test_retain_and_backward():
    a = Variable(_arr(4, seed=1))
    b = Variable(_arr(4, seed=2))
    f = MulAdd()
    y0, y1 = f.apply((a, b))
    assert f.inputs[0].data is a.array and f.inputs[1].data is b.array
    assert f.output_data[0] is y0.array and f.output_data[1] is None
    loss = F.sum(y0) + F.sum(y1)
    loss.backward()
    numpy.testing.assert_allclose(a.grad, b.array + 1, rtol=1e-6)
    numpy.testing.assert_allclose(b.grad, a.array + 1, rtol=1e-6)


def test_retained_output_recreated_when_released():
    a = Variable(_arr(4, seed=1))
    b = Variable(_arr(4, seed=2))
    f = MulAdd()
    y0, y1 = f.apply((a, b))
    del y0
    gc.collect()
    y0_again, = f.get_retained_outputs()
    numpy.testing.assert_allclose(y0_again.array, a.array * b.array)
    assert y0_again.creator_node is f


def test_unretained_inputs_hold_no_array():
    x = Variable(_arr(4))
    f = Double()
    f.apply((x,))
    assert f.inputs[0].data is None


def test_type_check_message():
    with pytest.raises(type_check.InvalidType) as info:
        MulAdd().apply((_arr(3), _arr(4)))
    msg = str(info.value)
    assert 'Invalid operation is performed in: MulAdd (Forward)' in msg
    assert 'Expect: a.shape == b.shape' in msg
    assert 'Actual: (3,) != (4,)' in msg


def test_type_check_off_skips_check():
    with minichainer.using_config('type_check', False):
        with pytest.raises(ValueError):  # numpy's own broadcasting error instead
            MulAdd().apply((_arr(3), _arr(4)))


def test_type_check_light_mode_used_when_passing():
    calls = []

    class Spy(FunctionNode):
        def check_type_forward(self, in_types):
            calls.append(type(in_types).__name__)
            type_check.expect(in_types[0].ndim == 1)

        def forward(self, inputs):
            return inputs[0],

    Spy().apply((_arr(3),))
    assert calls == ['LightTypeInfoTuple']
    with pytest.raises(type_check.InvalidType, match='in_types\\[0\\].ndim == 1'):
        Spy().apply((_arr(3, 2),))
    assert calls[1:] == ['LightTypeInfoTuple', 'TypeInfoTuple']


def test_backward_returning_all_inputs_is_accepted():
    class Two(FunctionNode):
        def forward(self, inputs):
            return inputs[0] + inputs[1],

        def backward(self, indexes, grad_outputs):
            return grad_outputs[0], grad_outputs[0]

    a = Variable(_arr(3))
    b = Variable(_arr(3), requires_grad=False)
    y, = Two().apply((a, b))
    y.grad = numpy.ones(3, numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(a.grad, 1)
    assert b.grad is None


def test_wrong_gradient_shape_is_reported():
    class Wrong(FunctionNode):
        def forward(self, inputs):
            return inputs[0] * 1,

        def backward(self, indexes, grad_outputs):
            return Variable(numpy.ones(5, numpy.float32)),

    x = Variable(_arr(3))
    y, = Wrong().apply((x,))
    y.grad = numpy.ones(3, numpy.float32)
    with pytest.raises(ValueError, match='Wrong'):
        y.backward()


def test_unchain():
    x = Variable(_arr(3))
    f = Double()
    y, = f.apply((x,))
    f.unchain()
    assert f.inputs is None
    assert y.creator is None


def test_old_style_function():
    class OldMul(minichainer.Function):
        def forward_cpu(self, inputs):
            a, b = inputs
            return a * b,

        def backward_cpu(self, inputs, grad_outputs):
            a, b = inputs
            gy, = grad_outputs
            return gy * b, gy * a

    a = Variable(_arr(3, seed=1))
    b = Variable(_arr(3, seed=2))
    f = OldMul()
    y = f(a, b)
    assert isinstance(y, Variable)
    assert y.creator is f
    assert isinstance(y.creator_node, minichainer.FunctionAdapter)
    assert f.label == 'OldMul'
    assert f.inputs[0] is a.node
    y.grad = numpy.ones(3, numpy.float32)
    y.backward()
    numpy.testing.assert_allclose(a.grad, b.array)
    numpy.testing.assert_allclose(b.grad, a.array)


def test_old_style_function_multiple_outputs_and_retain_outputs():
    class Split(minichainer.Function):
        def forward(self, inputs):
            self.retain_inputs(())
            self.retain_outputs((0,))
            x, = inputs
            return x * 2, x * 3

        def backward(self, inputs, grad_outputs):
            assert inputs == (None,)
            g0, g1 = grad_outputs
            y0, _ = self.output_data
            assert y0 is not None
            return g0 * 2 + g1 * 3,

    x = Variable(_arr(3))
    f = Split()
    y0, y1 = f(x)
    loss = F.sum(y0 + y1)
    loss.backward()
    numpy.testing.assert_allclose(x.grad, numpy.full(3, 5, numpy.float32))


def test_old_style_gradient_cannot_be_differentiated_twice():
    class OldSquare(minichainer.Function):
        def forward(self, inputs):
            return inputs[0] ** 2,

        def backward(self, inputs, grad_outputs):
            return 2 * inputs[0] * grad_outputs[0],

    x = Variable(numpy.array([3.0], numpy.float32))
    y = OldSquare()(x)
    y.grad = numpy.ones(1, numpy.float32)
    y.backward(enable_double_backprop=True)
    gx = x.grad_var
    assert gx.node._old_style_grad_generator == 'OldSquare'


def test_function_hooks():
    events = []

    class Recorder(minichainer.FunctionHook):
        name = 'recorder'

        def forward_preprocess(self, function, in_data):
            events.append(('fwd', function.label))

        def backward_preprocess(self, function, in_data, out_grad):
            events.append(('bwd', function.label))

    x = Variable(_arr(3))
    with Recorder():
        y, = Double().apply((x,))
        y.grad = numpy.ones(3, numpy.float32)
        y.backward()
    n_events = len(events)
    Double().apply((x,))
    assert len(events) == n_events  # the hook is gone after the with block
    # backward's own function applications (gy * 2) also pass through forward hooks
    assert events == [('fwd', 'Double'), ('bwd', 'Double'), ('fwd', '_ * 2.0')]

    f = Double()
    hook = Recorder()
    f.add_hook(hook)
    f.apply((x,))
    assert events[-1] == ('fwd', 'Double')
    with pytest.raises(KeyError):
        f.add_hook(Recorder())
    f.delete_hook('recorder')
    with pytest.raises(TypeError):
        f.add_hook(object())


def test_impl_name_is_the_implementing_class():
    import minichainer.functions as F
    y = F.relu(minichainer.Variable(numpy.ones(2, numpy.float32)))
    assert y.creator._impl_name == 'ReLU'

    class Twice(minichainer.Function):
        def forward(self, inputs):
            return inputs[0] * 2,

    z = Twice()(minichainer.Variable(numpy.ones(2, numpy.float32)))
    assert z.creator_node._impl_name == 'Twice'
    assert minichainer.disable_experimental_feature_warning is False


def test_old_style_function_with_a_none_input():
    # Chainer passes None on to forward and backward for a None input.
    class AddOptional(minichainer.Function):
        def forward(self, inputs):
            x, offset = inputs
            return (x * 2 if offset is None else x * 2 + offset),

        def backward(self, inputs, grad_outputs):
            x, offset = inputs
            assert offset is None
            return grad_outputs[0] * 2, None

    x = Variable(_arr(2))
    y = AddOptional()(x, None)
    y.grad = numpy.ones(2, numpy.float32)
    y.backward()
    numpy.testing.assert_allclose(x.grad, [2, 2])
