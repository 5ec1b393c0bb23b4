"""APIs that Chainer programs and Chainer's own tests use (issue 14, item 2)."""
import copy
import io
import unittest
from unittest import mock

import numpy
import pytest

import minichainer
import minichainer.functions as F
import minichainer.links as L
from minichainer import gradient_check
from minichainer import memory_layouts
from minichainer import testing
from minichainer import Variable


@pytest.fixture(autouse=True)
def _plain_apply_afterwards():
    # The first Variable with a memory layout makes FunctionNode.apply layout-aware for
    # the process; put the plain one back so other test modules run as usual.
    from minichainer import function_node
    yield
    function_node.disable_memory_layouts()


def _f32(*shape, seed=0):
    return numpy.random.RandomState(seed).uniform(-1, 1, shape).astype(numpy.float32)


# -- old-style Function ------------------------------------------------------------------
class _ListBackward(minichainer.Function):
    # ChainerRL's SumArrays/WeightedSumArrays return lists from backward
    def forward(self, inputs):
        return inputs[0] * 2 + inputs[1],

    def backward(self, inputs, grad_outputs):
        gy, = grad_outputs
        return [gy * 2, gy]


def test_old_style_backward_may_return_a_list():
    a, b = Variable(_f32(3)), Variable(_f32(3, seed=1))
    y = _ListBackward()(a, b)
    y.grad = numpy.ones(3, numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(a.grad, numpy.full(3, 2, numpy.float32))
    numpy.testing.assert_array_equal(b.grad, numpy.ones(3, numpy.float32))


def test_old_style_list_backward_passes_gradient_check():
    xs = (_f32(4).astype(numpy.float64), _f32(4, seed=1).astype(numpy.float64))
    gradient_check.check_backward(lambda a, b: _ListBackward()(a, b), xs,
                                  _f32(4, seed=2).astype(numpy.float64))


def test_old_style_forward_must_still_return_a_tuple():
    class ListForward(minichainer.Function):
        def forward(self, inputs):
            return [inputs[0]]

    with pytest.raises(TypeError, match='forward output must be a tuple'):
        ListForward()(Variable(_f32(2)))


def test_old_style_backward_returning_a_non_sequence_is_an_error():
    class Bad(minichainer.Function):
        def forward(self, inputs):
            return inputs[0] * 1,

        def backward(self, inputs, grad_outputs):
            return 3

    y = Bad()(Variable(_f32(2)))
    y.grad = numpy.ones(2, numpy.float32)
    with pytest.raises(TypeError, match='sequence'):
        y.backward()


# -- gradient_check ----------------------------------------------------------------------
def test_gradient_check_reexports_assert_allclose():
    assert gradient_check.assert_allclose is testing.assert_allclose


class _WrongBackward(minichainer.Function):
    def forward(self, inputs):
        return inputs[0] * 3,

    def backward(self, inputs, grad_outputs):
        return grad_outputs[0] * 2,  # should be 3


def test_check_backward_runner_and_unit_vector():
    x = _f32(3).astype(numpy.float64)
    gy = _f32(3, seed=1).astype(numpy.float64)
    args = ((), 1e-3, 1e-4, 1e-3, None, None, False, False)
    gradient_check._CheckBackward(lambda v: v * v, x, gy, *args).run()
    with pytest.raises(AssertionError):
        gradient_check._CheckBackward(lambda v: _WrongBackward()(v), x, gy, *args).run()
    for size in (1, 5, 100):
        y = gradient_check._CheckBackward._sample_unit_vector(size, numpy)
        assert y.shape == (size,)
        numpy.testing.assert_allclose(numpy.square(y).sum(), 1.0)
        assert numpy.abs(y).min() >= 0.1 / numpy.sqrt(size)


# -- dir() names Chainer has ---------------------------------------------------------------
@pytest.mark.parametrize('name', ['mean', 'layout', 'as_layout', 'raw_array', 'chx_array',
                                  '_node'])
def test_variable_has_chainer_attribute(name):
    assert name in dir(Variable(_f32(2)))
    assert name in dir(minichainer.Parameter(_f32(2)))


def test_variable_mean_is_average():
    x = Variable(_f32(2, 3))
    numpy.testing.assert_allclose(x.mean().array, x.array.mean(), rtol=1e-6)
    w = numpy.array([1, 2, 3], numpy.float32)
    numpy.testing.assert_allclose(x.mean(axis=1, weights=w).array,
                                  numpy.average(x.array, axis=1, weights=w), rtol=1e-6)
    assert x.mean(axis=0, keepdims=True).shape == (1, 3)
    gradient_check.check_backward(lambda v: v.mean(axis=1), _f32(2, 3), _f32(2, seed=1))


def test_variable_node_exists_at_creation_as_chainer():
    x = Variable(_f32(2))
    x._node._rank = 2  # Chainer's tests set ranks this way
    assert (x * 1).rank == 3


def test_link_from_params_default_raises():
    with pytest.raises(NotImplementedError, match='from_params'):
        minichainer.Chain.from_params()


def test_function_node_layout_attributes():
    node = minichainer.FunctionNode()
    assert node.is_elementwise is False and node.chainerx_device is None
    node.output_layouts = (None,)
    assert node.output_layouts == (None,)
    with pytest.raises(TypeError):
        node.output_layouts = [None]


# -- forward replaced by a mock (Chainer's own tests) ----------------------------------------
def test_function_node_apply_with_mocked_forward():
    y1, y2 = _f32(4), _f32(4, seed=1)
    f = minichainer.FunctionNode()
    f.check_type_forward = mock.MagicMock()
    f.forward_cpu = mock.MagicMock(return_value=(y1, y2))
    x = Variable(_f32(3))
    ys = f.apply((x, Variable(_f32(3, seed=2))))
    assert f.forward_cpu.call_count == 1 and f.check_type_forward.call_count == 1
    assert ys[0].array is y1 and ys[1].creator_node is f


def test_function_call_with_mocked_forward():
    y = _f32(2)
    f = minichainer.Function()
    f.forward = mock.MagicMock(return_value=(y,))
    out = f(Variable(_f32(3)))
    assert out.array is y and f.forward.call_count == 1


def test_retained_output_keeps_its_array_in_its_node():
    class Retaining(minichainer.FunctionNode):
        def forward(self, inputs):
            self.retain_outputs((1,))
            return inputs[0] * 1, inputs[0] * 2

    a, b = Retaining().apply((Variable(_f32(2)),))
    assert a.node.data is None and b.node.data is b.array


# -- parameters shared through copies ---------------------------------------------------------
def test_link_copies_keep_sharing_assigned_arrays():
    # ChainerRL's asynchronous trainers put parameters into shared memory this way
    head = L.Linear(2, 2)
    model_a = minichainer.ChainList(head.copy(), L.Linear(2, 3))
    model_b = minichainer.ChainList(head.copy(), L.Linear(2, 4))
    shared = numpy.frombuffer(bytearray(16), dtype=numpy.float32).reshape(2, 2)
    model_b[0].W.array = shared
    assert model_a[0].W.array is shared and model_b[0].W.array is shared
    assert model_a[1].W.array is not model_b[1].W.array


def test_uninitialized_link_copies_initialize_together():
    head = L.Linear(None, 3)
    twin = head.copy()
    head(numpy.ones((1, 4), numpy.float32))
    assert twin.W.array is head.W.array


# -- testing.with_requires ----------------------------------------------------------------------
def test_with_requires_sees_chainer_7_8_1():
    ran = []

    class T(unittest.TestCase):
        @testing.with_requires('chainer>=5')
        def test_new(self):
            ran.append('new')

        @testing.with_requires('chainer<7')
        def test_old(self):
            ran.append('old')

        @testing.without_requires('chainer>=7.8')
        def test_without(self):
            ran.append('without')

    result = unittest.TestResult()
    unittest.defaultTestLoader.loadTestsFromTestCase(T).run(result)
    assert ran == ['new'] and len(result.skipped) == 2


def test_with_requires_parses_without_packaging():
    from minichainer.testing import helper
    name, clauses = helper._simple_requirement('chainer>=5,<8')
    assert name == 'chainer' and helper._simple_contains(clauses, '7.8.1')
    assert not helper._simple_contains([('<', '7')], '7.8.1')
    assert helper._simple_contains([('==', '7.*')], '7.8.1')


# -- memory layouts -------------------------------------------------------------------------------
def test_as_layout_round_trip_and_shapes():
    x = Variable(_f32(2, 3, 4, 5))
    y = x.as_layout(memory_layouts.CUDNN_CHANNEL_LAST_X)
    assert y.layout == memory_layouts.CUDNN_CHANNEL_LAST_X
    assert y.shape == (2, 3, 4, 5) and y.raw_array.shape == (2, 4, 5, 3)
    assert memory_layouts.get_raw_shape(y) == (2, 4, 5, 3)
    assert memory_layouts.get_semantic_shape(y) == (2, 3, 4, 5)
    assert memory_layouts.get_semantic_shape(
        y.raw_array, assumed_layout=memory_layouts.CUDNN_CHANNEL_LAST_X) == (2, 3, 4, 5)
    z = y.as_layout(None)
    assert z.layout is None
    numpy.testing.assert_array_equal(z.array, x.array)
    assert x.as_layout(None) is x


def test_as_layout_gradient():
    def f(x):
        return x.as_layout(memory_layouts.CUDNN_CHANNEL_LAST_X).as_layout(None) * 2
    gradient_check.check_backward(f, _f32(2, 3, 2), _f32(2, 3, 2, seed=1))



def test_functions_reject_non_standard_layouts_unless_elementwise():
    y = Variable(_f32(2, 3, 4), layout=memory_layouts.CUDNN_CHANNEL_LAST_X)
    assert y.shape == (2, 4, 3)
    with pytest.raises(RuntimeError, match='non-standard layouts'):
        F.sum(y)
    assert F.relu(y).layout == memory_layouts.CUDNN_CHANNEL_LAST_X


@pytest.mark.parametrize('fixed', [False, True])
def test_batch_normalization_takes_and_gives_a_channel_last_layout(fixed):
    # As Chainer's: y keeps x's layout, and values and gradients are those of the
    # standard layout (checked numerically through the layout round trip).
    layout = memory_layouts.CUDNN_CHANNEL_LAST_X
    x, gamma, beta = _f32(2, 3, 4, 5), _f32(3, seed=1) + 2, _f32(3, seed=2)
    mean, var = _f32(3, seed=3), _f32(3, seed=4) + 2

    def bn(h, g, b):
        if fixed:
            return F.fixed_batch_normalization(h, g, b, mean, var)
        return F.batch_normalization(h, g, b)

    y = bn(Variable(x).as_layout(layout), gamma, beta)
    assert y.layout == layout and y.shape == (2, 3, 4, 5)
    numpy.testing.assert_allclose(y.as_layout(None).array, bn(x, gamma, beta).array,
                                  rtol=1e-5, atol=1e-5)
    gradient_check.check_backward(
        lambda h, g, b: bn(h.as_layout(layout), g, b).as_layout(None), (x, gamma, beta),
        _f32(2, 3, 4, 5, seed=5), dtype=numpy.float64, atol=1e-3, rtol=1e-3)


def test_batch_normalization_link_in_cudnn_fast_mode_keeps_the_layout():
    with minichainer.using_config('compute_mode', 'cudnn_fast'):
        link = L.BatchNormalization(3)
    assert link.gamma.layout is None
    x = Variable(numpy.ones((2, 4, 5, 3), numpy.float32),
                 layout=memory_layouts.CUDNN_CHANNEL_LAST_X)
    y = link(x)
    assert y.layout == memory_layouts.CUDNN_CHANNEL_LAST_X and y.shape == (2, 3, 4, 5)
    assert link.avg_mean.shape == (3,)


def test_parameter_layout_initializes_channel_last():
    p = minichainer.Parameter(minichainer.initializers.One(),
                              layout=memory_layouts.CUDNN_CHANNEL_LAST_W)
    p.initialize((5, 3, 2, 2))
    assert p.shape == (5, 3, 2, 2) and p.raw_array.shape == (5, 2, 2, 3)


def test_convolution_2d_cudnn_fast_mode_as_chainer():
    with minichainer.using_config('compute_mode', 'cudnn_fast'):
        assert minichainer.get_compute_mode() == 'cudnn_fast'
        link = L.Convolution2D(3, 4, 2)
    assert link.W.layout == memory_layouts.CUDNN_CHANNEL_LAST_W
    assert link.W.shape == (4, 3, 2, 2)
    with pytest.raises(RuntimeError, match='cudnn_fast'):
        link(Variable(_f32(1, 2, 5, 3), layout=memory_layouts.CUDNN_CHANNEL_LAST_X))
    assert L.Convolution2D(3, 4, 2).W.layout is None


# -- static graph decorators ----------------------------------------------------------------------
class _MLP(minichainer.Chain):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(3, 4, initialW=minichainer.initializers.Normal(1.0))

    def plain(self, x):
        return F.relu(self.l1(x))

    @minichainer.static_graph(verbosity_level=0)
    def static(self, x):
        return F.relu(self.l1(x))

    @minichainer.static_graph
    def static_bare(self, x):
        return self.plain(x)


def test_static_graph_gives_define_by_run_results():
    numpy.random.seed(0)
    model = _MLP()
    x = _f32(2, 3)
    expected = model.plain(x).array
    for _ in range(3):
        numpy.testing.assert_array_equal(model.static(x).array, expected)
        numpy.testing.assert_array_equal(model.static_bare(x).array, expected)
    model.schedule_manager.end_forward()
    assert model.static_schedule.is_empty()
    model.cleargrads()
    F.sum(model.static(x)).backward()
    g_static = model.l1.W.grad.copy()
    model.cleargrads()
    F.sum(model.plain(x)).backward()
    numpy.testing.assert_array_equal(g_static, model.l1.W.grad)


def test_static_graph_rejects_unknown_option_and_nesting():
    with pytest.raises(TypeError, match='unexpected'):
        minichainer.static_graph(fast=True)

    class Outer(_MLP):
        @minichainer.static_graph
        def outer(self, x):
            return self.static(x)

    with pytest.raises(RuntimeError, match='nested'):
        Outer().outer(_f32(1, 3))


def test_static_code_runs_every_call():
    calls = []

    @minichainer.static_code
    def count(x):
        calls.append(1)
        return x

    @minichainer.static_code(func_name='named')
    def named(x):
        return x * 2

    assert count(3) == 3 and count(4) == 4 and len(calls) == 2 and named(2) == 4
    from minichainer.graph_optimizations import static_code
    assert static_code is minichainer.static_code


# -- small modules ----------------------------------------------------------------------------
def test_backprop_utils_step_and_reduce():
    from minichainer import _backprop_utils
    x = Variable(_f32(3))
    y = x * 3
    func = y.creator_node
    grads = {node: [] for node in func.inputs}
    _backprop_utils.backprop_step(func, (0,), (Variable(numpy.ones(3, numpy.float32)),),
                                  grads, False)
    gx = _backprop_utils._reduce(grads[func.inputs[0]])
    numpy.testing.assert_array_equal(gx.array, numpy.full(3, 3, numpy.float32))
    pair = [Variable(numpy.ones(2, numpy.float32)), Variable(numpy.ones(2, numpy.float32))]
    numpy.testing.assert_array_equal(_backprop_utils._reduce(pair).array, [2, 2])
    assert len(pair) == 1 and _backprop_utils._reduce([]) is None


def test_runtime_info():
    from minichainer import _runtime_info
    info = str(_runtime_info._get_runtime_info())
    assert minichainer.__version__ in info and 'NumPy: ' + numpy.__version__ in info
    out = io.StringIO()
    _runtime_info.print_runtime_info(out)
    assert out.getvalue() == info
    out = io.StringIO()
    minichainer.print_runtime_info(out)
    assert out.getvalue() == info


def test_size_of_shape_and_module_aliases():
    from minichainer.utils import array
    assert array.size_of_shape(()) == 1 and array.size_of_shape((2, 3, 4)) == 24
    assert isinstance(array.size_of_shape(numpy.array([2, 3])), int)
    import minichainer.backends.cuda
    assert minichainer.cuda is minichainer.backends.cuda
    assert minichainer.Fallback is minichainer.Fallback and repr(minichainer.Fallback) == \
        'Fallback'


# -- validation Chainer has ----------------------------------------------------------------------
def test_sequential_insert_of_linear_built_from_a_tuple():
    seq = minichainer.Sequential(L.Linear(3, 3), F.relu)
    subject = L.Linear((3, 3))
    seq.insert(1, subject)
    assert list(seq) == [seq[0], subject, F.relu]
    assert subject.b.shape == (3, 3)
    with pytest.raises(TypeError, match='out_size'):
        subject(_f32(1, 3))


@pytest.mark.parametrize('dtype,fill', [(numpy.uint8, 255), (numpy.uint16, 65535),
                                        (numpy.int32, -1), (numpy.float32, -1)])
def test_pad_sequence_negative_padding_wraps_like_chainer(dtype, fill):
    xs = [numpy.array([1, 2, 3], dtype), numpy.array([4], dtype)]
    y = F.pad_sequence(xs, padding=-1)
    assert y.dtype == dtype
    numpy.testing.assert_array_equal(y.array, numpy.array([[1, 2, 3], [4, fill, fill]],
                                                          dtype))


def test_deep_copy_of_a_copied_parameter_is_independent():
    p = minichainer.Parameter(_f32(2))
    q = copy.copy(p)
    d = copy.deepcopy(q)
    d.array = numpy.zeros(2, numpy.float32)
    assert p.array is q.array and p.array is not d.array


def test_sequential_insert_out_of_range_raises_index_error():
    seq = minichainer.Sequential(F.relu)
    for pos in (2, -2):
        with pytest.raises(IndexError, match='out of range'):
            seq.insert(pos, F.identity)
    seq.insert(-1, L.Linear(2, 2))  # before the last layer, as list.insert
    assert isinstance(seq[0], L.Linear) and seq[1] is F.relu


def test_check_backward_no_grads_input_must_not_get_a_gradient():
    x1 = numpy.array([2], numpy.float32)
    x2 = numpy.array([3], numpy.float32)
    g = numpy.array([5], numpy.float32)

    def f(x, y):
        return x + y.array,

    with pytest.raises(RuntimeError, match='no_grads'):
        gradient_check.check_backward(f, (x1, x2), g, no_grads=[True, True])
    gradient_check.check_backward(f, (x1, x2), g, no_grads=[False, True])
    with pytest.raises(AssertionError):  # eps must be positive (Chainer asserts)
        gradient_check.numerical_grad(lambda: (x1 * 2,), (x1,), (g,), eps=0)


def test_debug_print_of_an_empty_variable_has_statistics_none():
    text = Variable().debug_print()
    assert text.splitlines()[1:] == ['- device: None', '- backend: None', '- shape: None',
                                     '- dtype: None', '- statistics: None', '- grad: None']
