"""The Optimizer/GradientMethod/UpdateRule/Hyperparameter API."""
import copy

import numpy
import pytest

import minichainer as mc
from minichainer import optimizer
from minichainer import optimizers


class Tiny(mc.Chain):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.child = mc.Link()
            with self.child.init_scope():
                self.child.w = mc.Parameter(numpy.arange(4, dtype=numpy.float32))
            self.lazy = mc.Link()
            with self.lazy.init_scope():
                self.lazy.u = mc.Parameter()  # not initialized


def test_hyperparameter_falls_back_to_parent():
    parent = optimizer.Hyperparameter()
    parent.lr = 0.1
    parent.momentum = 0.9
    child = optimizer.Hyperparameter(parent)
    child.lr = 0.5
    assert child.parent is parent
    assert (child.lr, child.momentum) == (0.5, 0.9)
    assert child.get_dict() == {'lr': 0.5, 'momentum': 0.9}
    assert repr(child) == 'Hyperparameter(lr=0.5, momentum=0.9)'
    parent.momentum = 0.8
    assert child.momentum == 0.8
    with pytest.raises(AttributeError):
        child.unknown
    clone = copy.deepcopy(child)
    assert clone.lr == 0.5 and clone.momentum == 0.8


def test_setup_requires_a_link():
    with pytest.raises(TypeError, match='must be a link.*got ndarray'):
        optimizers.SGD().setup(numpy.zeros(3))


def test_setup_returns_self_and_resets_counters():
    model = Tiny()
    opt = optimizers.MomentumSGD()
    assert opt.setup(model) is opt
    assert opt.target is model
    assert (opt.t, opt.epoch) == (0, 0)
    assert isinstance(model.child.w.update_rule, optimizers.momentum_sgd.MomentumSGDRule)
    assert model.child.w.update_rule.hyperparam.parent is opt.hyperparam


def test_update_before_setup_raises():
    with pytest.raises(RuntimeError, match=r'call optimizer\.setup\(link\) before update'):
        optimizers.Adam().update()


def test_base_optimizer_update_is_abstract():
    opt = optimizer.Optimizer()
    opt.setup(Tiny())
    with pytest.raises(NotImplementedError):
        opt.update()


def test_update_skips_uninitialized_parameters_and_counts_steps():
    model = Tiny()
    opt = optimizers.SGD(lr=1.0).setup(model)
    model.child.w.grad = numpy.ones(4, numpy.float32)
    # as in Chainer, the never-cleared gradient of the uninitialized parameter is unreadable
    other = Tiny()
    optimizers.SGD().setup(other)
    with pytest.raises(RuntimeError, match='cleargrad'):
        other.lazy.u.update()
    model.cleargrads()
    model.child.w.grad = numpy.ones(4, numpy.float32)
    opt.update()
    opt.update()
    numpy.testing.assert_array_equal(model.child.w.array, numpy.arange(4) - 2)
    assert opt.t == 2
    assert model.lazy.u.array is None
    assert model.lazy.u.grad is None


def test_new_epoch_auto_contract():
    opt = optimizers.SGD().setup(Tiny())
    opt.new_epoch()
    assert opt.epoch == 1
    with pytest.raises(RuntimeError, match='auto=True'):
        opt.new_epoch(auto=True)
    opt.use_auto_new_epoch = True
    opt.new_epoch(auto=True)
    assert opt.epoch == 2
    with pytest.raises(RuntimeError, match='duplicated new_epoch'):
        opt.new_epoch()


def test_serialize_uses_chainer_keys():
    from minichainer.serializers import npz
    model = Tiny()
    opt = optimizers.MomentumSGD().setup(model)
    model.cleargrads()
    model.child.w.grad = numpy.ones(4, numpy.float32)
    opt.update()
    opt.new_epoch()
    target = npz.serialize(opt)
    assert sorted(target) == ['child/w/t', 'child/w/v', 'epoch', 'lazy/u/t', 't']
    assert int(target['t']) == 1 and int(target['epoch']) == 1
    numpy.testing.assert_allclose(target['child/w/v'], -0.01)


def test_serialize_before_setup_raises():
    from minichainer.serializers import npz
    with pytest.raises(RuntimeError, match='setup'):
        npz.serialize(optimizers.SGD())


def test_update_rule_base_behaviour():
    rule = optimizer.UpdateRule()
    assert rule.state is None and rule.enabled and rule.t == 0
    param = mc.Parameter(numpy.zeros(2, numpy.float32))
    param.grad = numpy.ones(2, numpy.float32)
    with pytest.raises(NotImplementedError):
        rule.update(param)
    with pytest.raises(TypeError, match='callable'):
        rule.add_hook('not callable')


def test_custom_update_rule_and_gradient_method():
    class HalfRule(optimizer.UpdateRule):
        def init_state(self, param):
            self.state['count'] = numpy.zeros((), numpy.int64)

        def update_core_cpu(self, param):
            if param.grad is None:  # uninitialized parameter
                return
            self.state['count'] += 1
            param.array[...] *= self.hyperparam.factor

    class Half(optimizer.GradientMethod):
        factor = optimizer.HyperparameterProxy('factor')

        def __init__(self):
            super().__init__()
            self.hyperparam.factor = 0.5

        def create_update_rule(self):
            return HalfRule(self.hyperparam)

    assert isinstance(Half.factor, optimizer.HyperparameterProxy)
    assert 'hyperparam.factor' in Half.factor.__doc__
    model = Tiny()
    opt = Half().setup(model)
    model.cleargrads()
    model.child.w.grad = numpy.zeros(4, numpy.float32)
    opt.update()
    opt.factor = 2.0
    opt.update()
    numpy.testing.assert_array_equal(model.child.w.array, numpy.arange(4))
    assert int(model.child.w.update_rule.state['count']) == 2


def test_cleargrads_versus_zerograds_choice():
    model = Tiny()
    opt = optimizers.SGD(lr=0.1).setup(model)
    with pytest.warns(DeprecationWarning):
        opt.use_cleargrads(False)
    w0 = model.child.w.array.copy()
    with pytest.warns(DeprecationWarning, match='zerograd'):
        opt.update(lambda: mc.functions.sum(model.child.w * 2.0))
    numpy.testing.assert_allclose(model.child.w.array, w0 - 0.2)


def test_optimizer_saved_before_first_update_loads():
    import io
    from minichainer import serializers
    buf = io.BytesIO()
    serializers.save_npz(buf, optimizers.MomentumSGD().setup(Tiny()))
    buf.seek(0)
    model = Tiny()
    opt = optimizers.MomentumSGD().setup(model)
    serializers.load_npz(buf, opt)
    assert model.child.w.update_rule.state is None
    model.cleargrads()
    model.child.w.grad = numpy.ones(4, numpy.float32)
    opt.update()
    numpy.testing.assert_allclose(model.child.w.update_rule.state['v'], -0.01)


def test_duplicate_rule_hook_is_key_error_and_value_error():
    rule = optimizer.UpdateRule()
    rule.add_hook(lambda r, p: None, name='foo')
    for exc in (KeyError, ValueError):
        with pytest.raises(exc, match='already exists'):
            rule.add_hook(lambda r, p: None, name='foo')


def test_update_core_dispatch_covers_uninitialized_parameters():
    calls = []

    class Rule(optimizer.UpdateRule):
        def update_core_cpu(self, param):
            calls.append(param.name)

    class Opt(optimizer.GradientMethod):
        def create_update_rule(self):
            return Rule()

    link = mc.Link()
    with link.init_scope():
        link.p1 = mc.Parameter()
        link.p2 = mc.Parameter(numpy.array([3, 2], numpy.float32))
        link.p2.grad = numpy.array([13, 12], numpy.float32)
        link.p3 = mc.Parameter(numpy.array([5, 7], numpy.float32))
    Opt().setup(link).update()
    assert sorted(calls) == ['p1', 'p2', 'p3']
    numpy.testing.assert_array_equal(link.p3.grad, [0, 0])
    assert hasattr(optimizer.UpdateRule(), 'update_core_chainerx')


def test_fp32_update_of_an_uninitialized_float16_parameter():
    def initializer(array):
        raise AssertionError('never called')
    initializer.dtype = numpy.float16
    param = mc.Parameter(initializer)
    record = []
    rule = optimizer.UpdateRule()
    rule.update_core = lambda p: record.append((p, p.dtype))
    rule.use_fp32_update()
    rule.update(param)
    assert record[0][0] is not param and record[0][1] == numpy.float32
    assert param.array is None and param.dtype == numpy.float16
