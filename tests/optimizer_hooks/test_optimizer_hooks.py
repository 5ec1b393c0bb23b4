"""Optimizer hooks against NumPy references, hook timing and ordering."""
import numpy
import pytest

from minichainer import optimizer as optimizer_module
from minichainer import optimizer_hooks
from minichainer import optimizers

from ._models import Pair


def _sgd_step(hook, lr=0.1, seed=0, grad_scale=1.0):
    link = Pair(seed)
    before = {n: p.array.copy() for n, p in link.namedparams()}
    opt = optimizers.SGD(lr=lr).setup(link)
    opt.add_hook(hook)
    grads = link.set_grads(scale=grad_scale)
    opt.update()
    return link, before, grads


def test_weight_decay():
    link, before, grads = _sgd_step(optimizer_hooks.WeightDecay(0.01))
    for name, p in link.namedparams():
        expected = before[name] - 0.1 * (grads[name] + 0.01 * before[name])
        numpy.testing.assert_allclose(p.array, expected, rtol=1e-6)
        # the gradient itself was modified, as in Chainer
        numpy.testing.assert_allclose(p.grad, grads[name] + 0.01 * before[name], rtol=1e-6)


def test_weight_decay_with_momentum_sgd_matches_reference():
    link = Pair()
    w = {n: p.array.astype(numpy.float64) for n, p in link.namedparams()}
    v = {n: numpy.zeros_like(a) for n, a in w.items()}
    opt = optimizers.MomentumSGD(lr=0.1, momentum=0.9).setup(link)
    opt.add_hook(optimizer_hooks.WeightDecay(1e-2))
    for step in range(3):
        grads = link.set_grads(seed=step)
        opt.update()
        for n in w:
            g = grads[n] + 1e-2 * w[n]
            v[n] = 0.9 * v[n] - 0.1 * g
            w[n] = w[n] + v[n]
    for n, p in link.namedparams():
        numpy.testing.assert_allclose(p.array, w[n], rtol=1e-5)


def test_lasso():
    link, before, grads = _sgd_step(optimizer_hooks.Lasso(0.01))
    for name, p in link.namedparams():
        expected = before[name] - 0.1 * (grads[name] + 0.01 * numpy.sign(before[name]))
        numpy.testing.assert_allclose(p.array, expected, rtol=1e-6)


@pytest.mark.parametrize('scale,clipped', [(10.0, True), (0.01, False)])
def test_gradient_clipping(scale, clipped):
    link, before, grads = _sgd_step(optimizer_hooks.GradientClipping(1.0), grad_scale=scale)
    norm = numpy.sqrt(sum(float((g.astype(numpy.float64) ** 2).sum())
                          for g in grads.values()))
    rate = 1.0 / norm if clipped else 1.0
    assert (norm > 1.0) == clipped
    for name, p in link.namedparams():
        numpy.testing.assert_allclose(p.grad, grads[name] * rate, rtol=1e-6)
        numpy.testing.assert_allclose(p.array, before[name] - 0.1 * grads[name] * rate,
                                      rtol=1e-6)
    new_norm = numpy.sqrt(sum(float((p.grad.astype(numpy.float64) ** 2).sum())
                              for p in link.params()))
    assert new_norm == pytest.approx(1.0 if clipped else norm, rel=1e-5)


def test_gradient_hard_clipping():
    link, before, grads = _sgd_step(optimizer_hooks.GradientHardClipping(-0.3, 0.5))
    for name, p in link.namedparams():
        g = numpy.clip(grads[name], -0.3, 0.5)
        numpy.testing.assert_allclose(p.array, before[name] - 0.1 * g, rtol=1e-6)


def test_gradient_noise_draws_from_numpy_global_rng_in_parameter_order():
    numpy.random.seed(7)
    link, before, grads = _sgd_step(optimizer_hooks.GradientNoise(0.3))
    numpy.random.seed(7)
    std = numpy.sqrt(0.3 / numpy.power(1 + 0, 0.55))  # rule.t is 0 before the first step
    for name, p in link.namedparams():
        noise = numpy.random.normal(0, std, p.shape).astype(numpy.float32)
        numpy.testing.assert_allclose(p.array, before[name] - 0.1 * (grads[name] + noise),
                                      rtol=1e-6)


def test_gradient_noise_custom_function():
    calls = []

    def noise(xp, shape, dtype, hook, rule):
        calls.append((shape, dtype, hook.eta, rule.t))
        return xp.ones(shape, dtype)

    link, before, grads = _sgd_step(optimizer_hooks.GradientNoise(2.0, noise_func=noise))
    assert calls == [((3, 4), numpy.float32, 2.0, 0), ((5,), numpy.float32, 2.0, 0)]
    numpy.testing.assert_allclose(link.a.array, before['/a'] - 0.1 * (grads['/a'] + 1),
                                  rtol=1e-6)


def test_gradient_lars():
    hook = optimizer_hooks.GradientLARS(threshold=1.0, weight_decay=0.01, eps=1e-9)
    link, before, grads = _sgd_step(hook)
    for name, p in link.namedparams():
        w, g = before[name].astype(numpy.float64), grads[name].astype(numpy.float64)
        w_norm, g_norm = numpy.linalg.norm(w), numpy.linalg.norm(g)
        rate = w_norm / (1e-9 + g_norm + 0.01 * w_norm) if w_norm > 1.0 else 1.0
        numpy.testing.assert_allclose(p.array, w - 0.1 * (g + 0.01 * w) * rate, rtol=1e-5)


def test_gradient_lars_below_threshold_only_decays():
    hook = optimizer_hooks.GradientLARS(threshold=1e6, weight_decay=0.5)
    link, before, grads = _sgd_step(hook)
    numpy.testing.assert_allclose(
        link.b.array, before['/b'] - 0.1 * (grads['/b'] + 0.5 * before['/b']), rtol=1e-6)


def test_hook_attributes_match_chainer():
    for cls, per_param in [(optimizer_hooks.WeightDecay, True),
                           (optimizer_hooks.Lasso, True),
                           (optimizer_hooks.GradientClipping, False),
                           (optimizer_hooks.GradientHardClipping, True),
                           (optimizer_hooks.GradientNoise, True),
                           (optimizer_hooks.GradientLARS, True)]:
        assert cls.name == cls.__name__
        assert cls.timing == 'pre'
        assert getattr(cls, 'call_for_each_param', False) == per_param


def test_pre_and_post_hooks_run_in_registration_order_around_the_update():
    link = Pair()
    opt = optimizers.SGD(lr=1.0).setup(link)
    events = []

    def make(tag, per_param=False):
        if per_param:
            def hook(rule, param):
                events.append((tag, param.name))
            hook.call_for_each_param = True
        else:
            def hook(o):
                assert o is opt
                events.append((tag, float(link.a.array[0, 0])))
        hook.__name__ = tag
        return hook

    opt.add_hook(make('pre1'), timing='pre')
    opt.add_hook(make('post1'), timing='post')
    opt.add_hook(make('pre2', per_param=True), timing='pre')
    opt.add_hook(make('post2'), timing='post')

    def rule_hook(rule, param):
        events.append(('rule-pre', param.name))
    link.a.update_rule.add_hook(rule_hook, name='rh', timing='pre')

    def rule_post(rule, param):
        events.append(('rule-post', param.name))
    link.a.update_rule.add_hook(rule_post, name='rp', timing='post')

    a0 = float(link.a.array[0, 0])
    grads = link.set_grads()
    opt.update()
    a1 = a0 - float(grads['/a'][0, 0])
    assert [e[0] for e in events] == [
        'pre1', 'pre2', 'pre2', 'rule-pre', 'rule-post', 'post1', 'post2']
    assert events[0][1] == a0          # pre hooks see the old parameter
    assert events[3:5] == [('rule-pre', 'a'), ('rule-post', 'a')]
    assert events[5][1] == pytest.approx(a1)  # post hooks see the updated one
    opt.remove_hook('pre1')
    opt.remove_hook('post2')
    events.clear()
    opt.update()
    assert [e[0] for e in events] == ['pre2', 'pre2', 'rule-pre', 'rule-post', 'post1']
    with pytest.raises(KeyError):
        opt.remove_hook('nothing')


def test_auto_timing_uses_the_hook_attribute_or_warns():
    link = Pair()
    opt = optimizers.SGD().setup(link)
    hook = optimizer_hooks.GradientHardClipping(-1, 1)
    hook.timing = 'post'
    opt.add_hook(hook)
    assert 'GradientHardClipping' in opt._post_update_hooks

    def plain(o):
        pass
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter('error')  # no attribute: 'pre' without a warning
        opt.add_hook(plain, name='plain')
    assert 'plain' in opt._pre_update_hooks

    def odd(o):
        pass
    odd.timing = 'sometime'
    with pytest.warns(UserWarning, match='defaulting timing'):
        opt.add_hook(odd, name='odd')
    assert 'odd' in opt._pre_update_hooks


def test_hook_errors():
    link = Pair()
    opt = optimizers.SGD()
    with pytest.raises(RuntimeError, match='setup'):
        opt.add_hook(optimizer_hooks.WeightDecay(0.1))
    opt.setup(link)
    with pytest.raises(ValueError, match="timing must be one of 'pre', 'post', 'auto', "
                                         "got 'later'"):
        opt.add_hook(optimizer_hooks.WeightDecay(0.1), timing='later')
    with pytest.raises(TypeError, match='callable'):
        opt.add_hook(3)
    opt.add_hook(optimizer_hooks.WeightDecay(0.1))
    with pytest.raises(KeyError, match='already exists'):
        opt.add_hook(optimizer_hooks.WeightDecay(0.2))
    opt.add_hook(optimizer_hooks.WeightDecay(0.2), name='wd2')
    with pytest.raises(ValueError, match="'pre' or 'post'"):
        opt.call_hooks('auto')
    rule = link.a.update_rule
    with pytest.raises(ValueError, match='timing'):
        rule.add_hook(optimizer_hooks.Lasso(0.1), timing='sometime')
    rule.add_hook(optimizer_hooks.Lasso(0.1))
    with pytest.raises(ValueError, match='already exists'):
        rule.add_hook(optimizer_hooks.Lasso(0.1))
    rule.remove_hook('Lasso')
    assert not rule._pre_update_hooks


def test_update_rule_hook_only_affects_its_parameter():
    link = Pair()
    opt = optimizers.SGD(lr=0.1).setup(link)
    link.a.update_rule.add_hook(optimizer_hooks.WeightDecay(0.5))
    before = {n: p.array.copy() for n, p in link.namedparams()}
    grads = link.set_grads()
    opt.update()
    numpy.testing.assert_allclose(
        link.a.array, before['/a'] - 0.1 * (grads['/a'] + 0.5 * before['/a']), rtol=1e-6)
    numpy.testing.assert_allclose(link.b.array, before['/b'] - 0.1 * grads['/b'],
                                  rtol=1e-6)


@pytest.mark.parametrize('name', ['WeightDecay', 'Lasso', 'GradientClipping',
                                  'GradientNoise', 'GradientHardClipping'])
def test_deprecated_aliases_in_optimizer_module(name):
    args = {'GradientHardClipping': (-1, 1)}.get(name, (0.1,))
    with pytest.warns(DeprecationWarning, match='optimizer_hooks.' + name):
        hook = getattr(optimizer_module, name)(*args)
    assert isinstance(hook, getattr(optimizer_hooks, name))


@pytest.mark.parametrize('opt_cls', [optimizers.MomentumSGD, optimizers.AdaGrad])
def test_weight_decay_borrows_the_rule_scratch_buffer(opt_cls):
    import tracemalloc

    import minichainer as mc
    link = mc.Link()
    with link.init_scope():
        link.w = mc.Parameter(numpy.ones((400, 400), numpy.float32))
    opt = opt_cls().setup(link)
    opt.add_hook(optimizer_hooks.WeightDecay(1e-4))
    for _ in range(2):
        link.w.grad = numpy.ones((400, 400), numpy.float32)
        opt.update()
    link.w.grad = numpy.ones((400, 400), numpy.float32)
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        base = tracemalloc.get_traced_memory()[0]
        opt.update()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak - base < link.w.array.nbytes // 4


def test_weight_decay_is_loss_scale_aware():
    import minichainer as mc

    def updated(loss_scale):
        link = mc.Link()
        with link.init_scope():
            link.p = mc.Parameter(numpy.arange(3, dtype=numpy.float32))
        opt = optimizers.SGD(lr=1).setup(link)
        opt.add_hook(optimizer_hooks.WeightDecay(1 / 8.))
        loss = mc.functions.sum(link.p ** 3)
        loss.backward(loss_scale=loss_scale)
        opt.update()
        return link.p.array

    expected = numpy.arange(3) - (3 * numpy.arange(3) ** 2 + numpy.arange(3) / 8.)
    numpy.testing.assert_allclose(updated(None), expected, rtol=1e-6)
    numpy.testing.assert_allclose(updated(4.), expected, rtol=1e-6)
