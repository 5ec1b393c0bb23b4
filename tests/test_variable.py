import copy
import pickle
import warnings

import numpy
import pytest

import minichainer
import minichainer.functions as F
from minichainer import Variable
from minichainer.variable import _SLOT_ALIASES, VariableNode, new_variable


def _x(shape=(2, 3), dtype=numpy.float32, seed=0):
    return numpy.random.RandomState(seed).uniform(-1, 1, shape).astype(dtype)


class TestConstruction:

    def test_attributes(self):
        a = _x()
        v = Variable(a, name='v')
        assert v.array is a and v.data is a
        assert v.shape == (2, 3) and v.ndim == 2 and v.size == 6
        assert v.dtype == numpy.float32 and len(v) == 2
        assert v.name == 'v' and v.node.name == 'v'
        assert v.grad is None and v.grad_var is None
        assert v.creator is None and v.creator_node is None
        assert v.requires_grad is True and v.rank == 0
        assert v.xp is numpy
        assert str(v.device) == '@numpy'
        assert v.label == '(2, 3), float32'

    def test_none_data(self):
        v = Variable()
        assert v.array is None
        assert v.label == 'None'

    @pytest.mark.parametrize('bad', [[1.0, 2.0], 3.0, 1, (1, 2)])
    def test_non_array_raises(self, bad):
        with pytest.raises(TypeError, match='numpy.ndarray'):
            Variable(bad)

    def test_object_array_raises(self):
        with pytest.raises(TypeError, match='object'):
            Variable(numpy.array([object(), 1], dtype=object))

    def test_array_setter_validates(self):
        v = Variable(_x())
        v.array = _x((4,))
        assert v.shape == (4,)
        assert v.node.shape == (4,)
        with pytest.raises(TypeError):
            v.array = [1, 2]

    def test_grad_setter_checks(self):
        v = Variable(_x())
        v.grad = numpy.ones((2, 3), numpy.float32)
        assert isinstance(v.grad_var, Variable)
        numpy.testing.assert_array_equal(v.grad, 1)
        with pytest.raises(ValueError, match='Shape'):
            v.grad = numpy.ones((3, 2), numpy.float32)
        with pytest.raises(TypeError, match='Dtype'):
            v.grad = numpy.ones((2, 3), numpy.float64)
        v.grad = None
        assert v.grad is None

    def test_grad_in_constructor(self):
        g = numpy.zeros((2, 3), numpy.float32)
        v = Variable(_x(), grad=g)
        assert v.grad is g

    def test_name_setter_updates_node(self):
        v = Variable(_x())
        node = v.node
        v.name = 'abc'
        assert node.name == 'abc'

    def test_item(self):
        assert Variable(numpy.array([2.5], numpy.float32)).item() == 2.5
        with pytest.raises(ValueError):
            Variable(_x()).item()

    def test_as_variable_and_as_array(self):
        a = _x()
        v = minichainer.as_variable(a)
        assert isinstance(v, Variable) and v.array is a and not v.requires_grad
        assert minichainer.as_variable(v) is v
        assert minichainer.as_array(v) is a
        assert minichainer.as_array(a) is a


class TestRepr:

    def test_repr_and_str(self):
        v = Variable(numpy.array([1, 2, 3], numpy.float32))
        assert repr(v) == 'variable([1., 2., 3.])'
        assert str(v) == 'variable([1. 2. 3.])'
        v.name = 'x'
        assert repr(v) == 'variable x([1., 2., 3.])'

    def test_repr_multiline_prefix_alignment(self):
        v = Variable(numpy.zeros((2, 2), numpy.float32))
        assert repr(v) == 'variable([[0., 0.],\n          [0., 0.]])'

    def test_repr_empty_and_none(self):
        assert repr(Variable(numpy.zeros((0, 3), numpy.float32))) == \
            'variable([], shape=(0, 3))'
        assert repr(Variable()) == 'variable(None)'


class TestGradManagement:

    def test_cleargrad(self):
        v = Variable(_x(), grad=numpy.ones((2, 3), numpy.float32))
        v.cleargrad()
        assert v.grad is None

    def test_zerograd(self):
        v = Variable(_x())
        with pytest.warns(DeprecationWarning):
            v.zerograd()
        numpy.testing.assert_array_equal(v.grad, 0)

    def test_addgrad_and_copydata(self):
        a = Variable(_x(), grad=numpy.ones((2, 3), numpy.float32))
        b = Variable(_x(seed=1), grad=numpy.full((2, 3), 2, numpy.float32))
        a.addgrad(b)
        numpy.testing.assert_array_equal(a.grad, 3)
        a.copydata(b)
        numpy.testing.assert_array_equal(a.array, b.array)
        assert a.array is not b.array


class TestOperators:

    def setup_method(self):
        self.a = _x(seed=1)
        self.b = _x(seed=2) + 2
        self.x = Variable(self.a)
        self.y = Variable(self.b)

    @pytest.mark.parametrize('op, ref', [
        (lambda x, y: x + y, lambda a, b: a + b),
        (lambda x, y: x - y, lambda a, b: a - b),
        (lambda x, y: x * y, lambda a, b: a * b),
        (lambda x, y: x / y, lambda a, b: a / b),
        (lambda x, y: y ** x, lambda a, b: b ** a),
        (lambda x, y: x + 2, lambda a, b: a + 2),
        (lambda x, y: 2 + x, lambda a, b: 2 + a),
        (lambda x, y: x - 2, lambda a, b: a - 2),
        (lambda x, y: 2 - x, lambda a, b: 2 - a),
        (lambda x, y: x * 3, lambda a, b: a * 3),
        (lambda x, y: 3 * x, lambda a, b: 3 * a),
        (lambda x, y: x / 4, lambda a, b: a / 4),
        (lambda x, y: 4 / y, lambda a, b: 4 / b),
        (lambda x, y: y ** 2, lambda a, b: b ** 2),
        (lambda x, y: 2 ** x, lambda a, b: 2 ** a),
        (lambda x, y: -x, lambda a, b: -a),
        (lambda x, y: abs(x), lambda a, b: abs(a)),
        (lambda x, y: +x, lambda a, b: a),
        (lambda x, y: x + b_array(), lambda a, b: a + b_array()),
        (lambda x, y: b_array() * x, lambda a, b: b_array() * a),
    ])
    def test_forward(self, op, ref):
        y = op(self.x, self.y)
        assert isinstance(y, Variable)
        assert y.dtype == numpy.float32
        numpy.testing.assert_allclose(y.array, ref(self.a, self.b), rtol=1e-6)

    def test_constant_keeps_dtype(self):
        x = Variable(numpy.ones(3, numpy.float16))
        assert (x * 0.5).dtype == numpy.float16
        assert (x + numpy.float64(1)).dtype == numpy.float16

    def test_inplace_forms_rebind(self):
        x = self.x
        original = x
        x += 1
        assert x is not original
        numpy.testing.assert_allclose(x.array, self.a + 1)
        x *= 2
        x -= 1
        x /= 2
        x **= 2
        numpy.testing.assert_allclose(x.array, (((self.a + 1) * 2 - 1) / 2) ** 2, rtol=1e-6)
        numpy.testing.assert_array_equal(original.array, self.a)

    def test_floordiv_not_differentiable(self):
        y = self.y // 2
        numpy.testing.assert_array_equal(y.array, self.b // 2)
        assert y.creator is None and not y.requires_grad
        z = 7 // self.y
        numpy.testing.assert_array_equal(z.array, 7 // self.b)
        w = self.y // self.y
        numpy.testing.assert_array_equal(w.array, numpy.ones_like(self.b))

    def test_matmul_operator(self):
        a = Variable(_x((2, 3)))
        b = Variable(_x((3, 4), seed=3))
        numpy.testing.assert_allclose((a @ b).array, a.array @ b.array, rtol=1e-6)
        numpy.testing.assert_allclose((a.array @ b).array, a.array @ b.array, rtol=1e-6)

    def test_ndarray_on_the_left_defers_to_variable(self):
        y = self.b + self.x
        assert isinstance(y, Variable)
        y = self.b * self.x
        assert isinstance(y, Variable)

    def test_bad_constant(self):
        with pytest.raises(TypeError, match='scalar'):
            self.x + 'a'

    def test_comparisons_not_supported(self):
        for op in (lambda: self.x < self.y, lambda: self.x == self.y,
                   lambda: self.x >= 1, lambda: bool(self.x)):
            with pytest.raises(NotImplementedError):
                op()
        with pytest.raises(TypeError, match='^unhashable type'):  # as in Chainer
            hash(self.x)
        with pytest.raises(TypeError):
            {self.x}
        assert len({self.x.node, self.y.node}) == 2  # nodes hash by identity

    def test_getitem_reshape_transpose(self):
        x = Variable(numpy.arange(24, dtype=numpy.float32).reshape(2, 3, 4))
        numpy.testing.assert_array_equal(x[1, :, ::2].array, x.array[1, :, ::2])
        assert x.reshape(6, 4).shape == (6, 4)
        assert x.reshape((4, 6)).shape == (4, 6)
        assert x.transpose().shape == (4, 3, 2)
        assert x.transpose(1, 0, 2).shape == (3, 2, 4)
        assert x.transpose((2, 0, 1)).shape == (4, 2, 3)
        assert x.T.shape == (4, 3, 2)


def b_array():
    return numpy.full((2, 3), 0.5, numpy.float32)


class TestGraphSurgery:

    def test_creator_and_unchain(self):
        x = Variable(_x())
        y = x * 2
        assert y.creator_node is not None
        assert y.creator is y.creator_node
        assert y.rank == 1
        y.unchain()
        assert y.creator is None

    def test_unchain_backward(self):
        x = Variable(_x())
        h = x * 2
        y = h + 1
        y.unchain_backward()
        assert h.creator is None
        assert y.creator is None

    def test_creator_setter(self):
        x = Variable(_x())
        y = x * 2
        z = Variable(_x())
        z.creator_node = y.creator_node
        assert z.rank == y.rank == 1

    def test_node_is_lazy_and_stable(self):
        v = Variable(_x())
        assert v._vnode is None
        node = v.node
        assert isinstance(node, VariableNode)
        assert v.node is node
        assert node.get_variable() is v
        assert node.label == '(2, 3), float32'


class TestCopyPickle:

    def test_copy_is_a_leaf_sharing_the_data_holder(self):
        # Chainer 7: copy.copy gives a new (leaf) node; the data holder is shared, so
        # assigning an array to one copy shows in the other
        x = Variable(_x(), name='x')
        y = x * 2
        c = copy.copy(y)
        assert c.array is y.array
        assert c.creator_node is None and y.creator_node is not None
        assert c.name == y.name
        new = numpy.zeros((2, 3), numpy.float32)
        c.array = new
        assert y.array is new
        assert y.node.shape == (2, 3)

    def test_copied_parameters_share_assigned_arrays_and_initialization(self):
        p = minichainer.Parameter()
        q = copy.copy(p)
        p.initialize((3, 2))
        assert q.array is p.array
        shared = numpy.frombuffer(bytearray(24), dtype=numpy.float32).reshape(3, 2)
        q.data = shared
        assert p.array is shared  # the very array, no copy
        d = copy.deepcopy(p)
        d.array = numpy.ones((3, 2), numpy.float32)
        assert p.array is shared  # a deep copy owns its data

    def test_deepcopy_copies_data(self):
        x = Variable(_x(), name='x', grad=numpy.ones((2, 3), numpy.float32))
        d = copy.deepcopy(x)
        assert d.array is not x.array
        numpy.testing.assert_array_equal(d.array, x.array)
        numpy.testing.assert_array_equal(d.grad, x.grad)
        assert d.name == 'x'

    def test_pickle(self):
        x = Variable(_x(), name='x', grad=numpy.ones((2, 3), numpy.float32))
        y = pickle.loads(pickle.dumps(x))
        numpy.testing.assert_array_equal(y.array, x.array)
        numpy.testing.assert_array_equal(y.grad, x.grad)
        assert y.name == 'x'


class TestDevice:

    def test_to_cpu_is_noop(self):
        x = Variable(_x())
        a = x.array
        x.to_cpu()
        assert x.array is a
        x.to_device('@numpy')
        x.to_device(-1)

    def test_to_gpu_raises(self):
        with pytest.raises(RuntimeError, match='GPU'):
            Variable(_x()).to_gpu()


class TestParameter:

    def test_from_array(self):
        a = _x()
        p = minichainer.Parameter(a)
        assert p.array is a
        assert p.is_initialized

    def test_scalar_initializer_with_shape(self):
        p = minichainer.Parameter(3, (2, 2))
        numpy.testing.assert_array_equal(p.array, 3)
        assert p.dtype == numpy.float32
        assert numpy.isnan(p.grad).all()

    def test_lazy(self):
        p = minichainer.Parameter()
        assert p.array is None and not p.is_initialized
        assert p.dtype == numpy.float64  # Chainer's quirk: numpy.dtype(None)
        p.initialize((3,))
        assert p.shape == (3,)
        assert numpy.isnan(p.array).all()

    def test_lazy_with_initializer(self):
        from minichainer import initializers
        p = minichainer.Parameter(initializers.Constant(2.0))
        p.initialize((2, 2))
        numpy.testing.assert_array_equal(p.array, 2)
        assert numpy.isnan(p.grad).all()
        q = minichainer.Parameter(initializers.Constant(2.0))
        q.cleargrad()  # before initialization: no gradient array is created
        q.initialize((2, 2))
        assert q.grad is None

    def test_update_calls_rule(self):
        calls = []

        class Rule:
            def update(self, param):
                calls.append(param)

        p = minichainer.Parameter(_x())
        p.update()
        assert calls == []
        p.update_rule = Rule()
        p.update()
        assert calls == [p]

    def test_parameter_in_graph(self):
        p = minichainer.Parameter(numpy.array([2.0], numpy.float32))
        y = F.sum(p * p)
        y.backward()
        numpy.testing.assert_allclose(p.grad, [4.0])

    def test_copy_and_pickle(self):
        p = minichainer.Parameter(_x(), name='W')
        c = copy.copy(p)
        assert isinstance(c, minichainer.Parameter) and c.array is p.array
        q = pickle.loads(pickle.dumps(p))
        assert isinstance(q, minichainer.Parameter)
        numpy.testing.assert_array_equal(q.array, p.array)


def test_numpy_asarray_of_variables_gives_an_object_array_as_chainer():
    # Chainer's Variable has no __array__: numpy keeps Variables as objects (Chainer's
    # own tests build observation lists this way).
    vs = [Variable(numpy.asarray(a, numpy.float32)) for a in (0.5, 0.6)]
    arr = numpy.asarray(vs)
    assert arr.dtype == object and arr[1] is vs[1]


# ------------------------------------------------ uninitialized gradient, user devices
def test_uninitialized_parameter_grad_unreadable_until_cleared_or_initialized():
    import pickle
    p = minichainer.Parameter()
    with pytest.raises(RuntimeError, match='cleargrad'):
        p.grad
    assert p._grad is None  # the internal accessor never raises
    with pytest.raises(RuntimeError, match='cleargrad'):
        pickle.loads(pickle.dumps(p)).grad
    p.cleargrad()
    assert p.grad is None
    q = minichainer.Parameter()
    q.initialize((2,))
    assert numpy.isnan(q.grad).all()  # the NaN gradient of the grad initializer
    r = minichainer.Parameter()
    r.grad = None
    assert r.grad is None
    s = minichainer.Parameter()
    with pytest.warns(DeprecationWarning):
        s.zerograd()
    s.initialize((3,))
    numpy.testing.assert_array_equal(s.grad, numpy.zeros(3))


class _CopyingDevice(minichainer.backend.Device):
    xp = numpy
    supported_array_types = (numpy.ndarray,)

    def __init__(self, index):
        self.index = index
        self.sent = 0

    def __eq__(self, other):
        return isinstance(other, _CopyingDevice) and other.index == self.index

    __hash__ = None

    def send_array(self, array):
        self.sent += 1
        return array.copy()


def test_to_device_of_a_user_defined_numpy_device_is_followed():
    dev = _CopyingDevice(3)
    a = numpy.arange(3, dtype=numpy.float32)
    v = minichainer.Variable(a)
    v.to_device(dev)
    assert v.device == dev and v.array is not a and dev.sent == 1
    v.to_device('@numpy')
    assert v.device == minichainer.backend.CpuDevice()
    p = minichainer.Parameter()  # uninitialized: the device is recorded and used later
    p.to_device(dev)
    assert p.device == dev
    p.initialize((2,))
    assert p.device == dev and dev.sent == 3  # data and NaN grad were sent
    link = minichainer.Link()
    with link.init_scope():
        link.u = minichainer.Parameter()
    link.to_device(dev)
    assert link.u.device == dev


def test_new_variable_without_creator_has_no_node():
    a = numpy.ones(2, numpy.float32)
    v = new_variable(a)
    assert v.array is a and v.requires_grad is False and v.creator_node is None
    assert v.name is None and v.grad is None and v._vnode is None


def test_new_variable_with_creator_is_a_graph_output():
    x = Variable(numpy.ones(2, numpy.float32))
    y = F.identity(x)
    creator = y.creator_node
    a = numpy.zeros((3, 1), numpy.float64)
    v = new_variable(a, True, creator)
    node = v.node
    assert node.creator_node is creator and node.rank == creator.rank + 1
    assert node.shape == (3, 1) and node.dtype == numpy.float64 and node.data is None
    assert node.get_variable_or_none() is v and v.requires_grad


def test_copied_or_unpickled_parameter_initializes_a_nan_gradient_as_chainer():
    # Chainer rebuilds a copied/unpickled Parameter from its initializer, so a later
    # initialize() gives it a NaN-filled gradient (not None) unless the initializer is an
    # array.
    p = minichainer.Parameter(shape=(2, 3))
    p.initializer = minichainer.initializers.Normal()
    p.initialize((2, 3))
    assert p.grad is None
    for q in (copy.deepcopy(p), pickle.loads(pickle.dumps(p))):
        q.initialize((2, 3))
        assert q.grad.shape == (2, 3) and numpy.isnan(q.grad).all()
    r = copy.deepcopy(minichainer.Parameter(numpy.ones(2, numpy.float32)))
    r.initialize((2,))
    assert r.grad is None


@pytest.mark.parametrize('cls, alias, slot', [
    (cls, alias, slot) for cls, aliases in
    _SLOT_ALIASES
    for alias, slot in aliases])
def test_chainer_private_slot_names_are_the_interface_slots(cls, alias, slot):
    # Chainer's private names (which its tests and some user code set by hand) are the
    # very descriptors of the public slots, so a write under one is read under the other.
    assert vars(cls)[alias] is vars(cls)[slot]
    assert slot in cls.__slots__


def test_private_and_interface_slot_names_share_state_as_chainer_tests_use_them():
    x = Variable(numpy.ones(2, numpy.float32))
    y = F.identity(x)
    x.node._rank = 3  # as Chainer's test_function_node does
    assert x.node.rank_slot == 3 and x.rank == 3
    y.node._requires_grad = False  # as Chainer's test_variable does
    assert y.node.requires_grad is False
    assert y.node._creator_node is y.node.creator_node_slot is y.creator_node
    g = Variable(numpy.full(2, 5, numpy.float32))
    x._grad_var = g
    assert x.grad_var_slot is g and x.grad_var is g
    assert x._data is x.array_slot is x.array
