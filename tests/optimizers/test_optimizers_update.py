"""Every optimizer against a float64 NumPy reference, its state layout, per-parameter
hyperparameter overrides, npz state round trips and the no-temporaries guarantee."""
import io
import tracemalloc
import warnings

import numpy
import pytest

import minichainer as mc
from minichainer import optimizers
from minichainer import serializers

from . import _reference as ref
from ._models import MLP, grads_for, set_grads

# (optimizer class, constructor kwargs, reference, state keys, hyperparameter to override)
CASES = [
    (optimizers.SGD, {'lr': 0.1}, ref.sgd, set(), 'lr'),
    (optimizers.MomentumSGD, {'lr': 0.1, 'momentum': 0.8}, ref.momentum_sgd, {'v'}, 'lr'),
    (optimizers.CorrectedMomentumSGD, {'lr': 0.1, 'momentum': 0.8},
     ref.corrected_momentum_sgd, {'v'}, 'momentum'),
    (optimizers.NesterovAG, {'lr': 0.1, 'momentum': 0.8}, ref.nesterov_ag, {'v'}, 'lr'),
    (optimizers.AdaGrad, {'lr': 0.1}, ref.ada_grad, {'h'}, 'lr'),
    (optimizers.AdaDelta, {'rho': 0.9}, ref.ada_delta, {'msg', 'msdx'}, 'rho'),
    (optimizers.RMSprop, {'lr': 0.1}, ref.rmsprop, {'ms'}, 'lr'),
    (optimizers.RMSprop, {'lr': 0.1, 'eps_inside_sqrt': True, 'eps': 1e-2}, ref.rmsprop,
     {'ms'}, 'alpha'),
    (optimizers.RMSpropGraves, {'lr': 0.01}, ref.rmsprop_graves, {'n', 'g', 'delta'},
     'momentum'),
    (optimizers.SMORMS3, {'lr': 0.01}, ref.smorms3, {'mem', 'g', 'g2'}, 'lr'),
    (optimizers.Adam, {'alpha': 0.01}, ref.adam, {'m', 'v'}, 'alpha'),
    (optimizers.Adam, {'alpha': 0.01, 'eta': 0.5, 'weight_decay_rate': 0.1}, ref.adam,
     {'m', 'v'}, 'eta'),
    (optimizers.AMSGrad, {'alpha': 0.01}, ref.adam, {'m', 'v', 'vhat'}, 'beta2'),
    (optimizers.AdaBound, {'alpha': 0.01, 'final_lr': 0.05}, ref.adam, {'m', 'v'},
     'gamma'),
    (optimizers.AMSBound, {'alpha': 0.01, 'final_lr': 0.05}, ref.adam,
     {'m', 'v', 'vhat'}, 'beta1'),
    (optimizers.AdamW, {'alpha': 0.01, 'weight_decay_rate': 0.05}, ref.adam, {'m', 'v'},
     'weight_decay_rate'),
    (optimizers.MSVAG, {'lr': 0.1}, ref.msvag, {'m', 'v'}, 'lr'),
]
IDS = ['{}-{}'.format(c[0].__name__, i) for i, c in enumerate(CASES)]

EXTRA_KWARGS = {
    optimizers.AMSGrad: {'amsgrad': True},
    optimizers.AdaBound: {'adabound': True},
    optimizers.AMSBound: {'amsgrad': True, 'adabound': True},
}


def _ref_kwargs(cls, kwargs):
    out = dict(kwargs)
    out.update(EXTRA_KWARGS.get(cls, {}))
    return out


def _run_reference(cls, kwargs, reference, model, n_steps, overrides=None):
    params = {name: p.array.astype(numpy.float64) for name, p in model.namedparams()}
    states = {name: {} for name in params}
    for step in range(1, n_steps + 1):
        grads = grads_for(model, step)
        for name in params:
            kw = _ref_kwargs(cls, kwargs)
            kw.update((overrides or {}).get(name, {}))
            params[name] = reference(params[name], grads[name].astype(numpy.float64),
                                     states[name], step, **kw)
    return params


def _train(opt, model, steps):
    for step in steps:
        set_grads(model, grads_for(model, step))
        opt.update()


@pytest.mark.parametrize('cls,kwargs,reference,keys,hp_name', CASES, ids=IDS)
def test_steps_match_reference(cls, kwargs, reference, keys, hp_name):
    model = MLP()
    expected = _run_reference(cls, kwargs, reference, model, 3)
    opt = cls(**kwargs).setup(model)
    _train(opt, model, range(1, 4))
    assert opt.t == 3
    # M-SVAG's variance estimate (vt - mt**2) cancels catastrophically in float32
    atol = 2e-4 if cls is optimizers.MSVAG else 2e-6
    for name, p in model.namedparams():
        assert p.array.dtype == numpy.float32
        numpy.testing.assert_allclose(p.array, expected[name], rtol=2e-5, atol=atol)
        assert p.update_rule.t == 3


@pytest.mark.parametrize('cls,kwargs,reference,keys,hp_name', CASES, ids=IDS)
def test_state_keys_and_serialized_layout(cls, kwargs, reference, keys, hp_name):
    model = MLP()
    opt = cls(**kwargs).setup(model)
    _train(opt, model, [1])
    assert set(model.l1.W.update_rule.state) == keys
    target = serializers.npz.serialize(opt)
    expected = {'t', 'epoch'}
    for path in ('l1/W', 'l1/b', 'l2/W', 'l2/b'):
        expected.add(path + '/t')
        expected.update(path + '/' + k for k in keys)
    assert set(target) == expected
    assert int(target['t']) == 1


@pytest.mark.parametrize('cls,kwargs,reference,keys,hp_name', CASES, ids=IDS)
def test_per_parameter_hyperparameter_override(cls, kwargs, reference, keys, hp_name):
    model = MLP()
    opt = cls(**kwargs).setup(model)
    default = getattr(opt.hyperparam, hp_name)
    new_value = default * 0.5 if default else 0.02
    model.l1.W.update_rule.hyperparam.__setattr__(hp_name, new_value)
    # the override is local: the optimizer and the other rules keep the default
    assert getattr(opt.hyperparam, hp_name) == default
    assert getattr(model.l1.b.update_rule.hyperparam, hp_name) == default
    expected = _run_reference(cls, kwargs, reference, model, 2,
                              overrides={'/l1/W': {hp_name: new_value}})
    _train(opt, model, [1, 2])
    atol = 2e-4 if cls is optimizers.MSVAG else 2e-6
    for name, p in model.namedparams():
        numpy.testing.assert_allclose(p.array, expected[name], rtol=2e-5, atol=atol)


@pytest.mark.parametrize('cls,kwargs,reference,keys,hp_name', CASES, ids=IDS)
def test_state_round_trip_through_npz_resumes_exactly(cls, kwargs, reference, keys,
                                                      hp_name):
    if cls is optimizers.MSVAG:
        pytest.skip('MSVAG keeps beta_power outside its state, as Chainer (not resumable)')
    model = MLP()
    opt = cls(**kwargs).setup(model)
    _train(opt, model, [1, 2])
    model_file, opt_file = io.BytesIO(), io.BytesIO()
    serializers.save_npz(model_file, model)
    serializers.save_npz(opt_file, opt)
    _train(opt, model, [3, 4])

    model2 = MLP(seed=5)
    opt2 = cls(**kwargs).setup(model2)
    model_file.seek(0)
    opt_file.seek(0)
    serializers.load_npz(model_file, model2)
    serializers.load_npz(opt_file, opt2)
    assert opt2.t == 2
    assert model2.l2.b.update_rule.t == 2
    _train(opt2, model2, [3, 4])
    for (name, p), (_, p2) in zip(model.namedparams(), model2.namedparams()):
        numpy.testing.assert_array_equal(p.array, p2.array, err_msg=name)


@pytest.mark.parametrize('cls,kwargs,reference,keys,hp_name',
                         [c for c in CASES if c[0] is not optimizers.MSVAG],
                         ids=[i for c, i in zip(CASES, IDS) if c[0] is not optimizers.MSVAG])
def test_no_full_size_temporaries_per_step(cls, kwargs, reference, keys, hp_name):
    model = MLP(sizes=(500, 500, 2))
    opt = cls(**kwargs).setup(model)
    _train(opt, model, [1, 2])  # allocate states and scratch buffers
    set_grads(model, grads_for(model, 3))
    param_bytes = model.l1.W.array.nbytes
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        base = tracemalloc.get_traced_memory()[0]
        opt.update()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak - base < param_bytes // 4


def test_disabled_rule_leaves_parameter_alone():
    model = MLP()
    opt = optimizers.MomentumSGD().setup(model)
    before = model.l1.W.array.copy()
    model.l1.W.update_rule.enabled = False
    _train(opt, model, [1])
    numpy.testing.assert_array_equal(model.l1.W.array, before)
    assert model.l1.W.update_rule.t == 0
    assert model.l1.W.update_rule.state is None
    assert not numpy.array_equal(model.l1.b.array, MLP().l1.b.array)


def test_hyperparameter_proxies_reach_every_rule():
    model = MLP()
    opt = optimizers.SGD(lr=0.1).setup(model)
    opt.lr = 0.5
    assert opt.hyperparam.lr == 0.5
    assert model.l2.W.update_rule.hyperparam.lr == 0.5
    before = model.l2.b.array.copy()
    set_grads(model, {n: numpy.ones(p.shape, numpy.float32) for n, p in model.namedparams()})
    opt.update()
    numpy.testing.assert_allclose(model.l2.b.array, before - 0.5)


def test_default_hyperparameters_match_chainer():
    assert optimizers.SGD().lr == 0.01
    m = optimizers.MomentumSGD()
    assert (m.lr, m.momentum) == (0.01, 0.9)
    a = optimizers.Adam()
    assert (a.alpha, a.beta1, a.beta2, a.eps, a.eta, a.weight_decay_rate, a.amsgrad,
            a.adabound, a.final_lr, a.gamma) == (
        0.001, 0.9, 0.999, 1e-8, 1.0, 0, False, False, 0.1, 1e-3)
    assert (optimizers.AdaGrad().lr, optimizers.AdaGrad().eps) == (0.001, 1e-8)
    assert (optimizers.AdaDelta().rho, optimizers.AdaDelta().eps) == (0.95, 1e-6)
    r = optimizers.RMSprop()
    assert (r.lr, r.alpha, r.eps, r.eps_inside_sqrt) == (0.01, 0.99, 1e-8, False)
    g = optimizers.RMSpropGraves()
    assert (g.lr, g.alpha, g.momentum, g.eps) == (1e-4, 0.95, 0.9, 1e-4)
    assert (optimizers.SMORMS3().lr, optimizers.SMORMS3().eps) == (0.001, 1e-16)
    assert optimizers.AMSGrad().amsgrad and not optimizers.AMSGrad().adabound
    assert optimizers.AMSBound().amsgrad and optimizers.AMSBound().adabound


def test_adam_alpha_t_and_deprecated_lr():
    model = MLP()
    opt = optimizers.Adam(alpha=0.01, beta1=0.8, beta2=0.9).setup(model)
    with pytest.raises(RuntimeError):
        opt.alpha_t
    _train(opt, model, [1, 2])
    expected = 0.01 * numpy.sqrt(1 - 0.9 ** 2) / (1 - 0.8 ** 2)
    assert opt.alpha_t == pytest.approx(expected, rel=1e-12)
    with pytest.warns(DeprecationWarning):
        assert opt.lr == opt.alpha_t
    with pytest.warns(DeprecationWarning):
        assert model.l1.W.update_rule.lr == pytest.approx(expected)
    assert model.l1.W.update_rule.alpha_t == pytest.approx(expected)


def test_adabound_bounds_follow_alpha():
    model = MLP()
    opt = optimizers.AdaBound(alpha=0.01, final_lr=0.1, gamma=0.01).setup(model)
    rule = model.l1.W.update_rule
    with pytest.raises(RuntimeError):
        rule.bounds
    _train(opt, model, [1])
    lower, upper = rule.bounds
    assert lower == pytest.approx(0.1 * (1 - 1 / (0.01 + 1)))
    assert upper == pytest.approx(0.1 * (1 + 1 / 0.01))
    opt.alpha = 0.005  # e.g. by an ExponentialShift extension
    assert rule.bounds[0] == pytest.approx(lower / 2)


def test_adam_float16_parameters():
    model = MLP(dtype=numpy.float16)
    expected = _run_reference(optimizers.Adam, {'alpha': 0.01}, ref.adam, model, 2)
    opt = optimizers.Adam(alpha=0.01).setup(model)
    _train(opt, model, [1, 2])
    for name, p in model.namedparams():
        assert p.array.dtype == numpy.float16
        numpy.testing.assert_allclose(p.array, expected[name], rtol=5e-3, atol=5e-3)


def test_adam_eps_too_small_for_float16():
    model = MLP(dtype=numpy.float16)
    opt = optimizers.RMSprop(eps=1e-10).setup(model)
    set_grads(model, grads_for(model, 1))
    with pytest.raises(ValueError, match='eps of RMSprop optimizer is too small'):
        opt.update()


def test_fp32_update_for_float16():
    model = MLP(dtype=numpy.float16)
    opt = optimizers.SGD(lr=0.1)
    opt.use_fp32_update()
    opt.setup(model)
    before = model.l1.W.array.astype(numpy.float32)
    grads = grads_for(model, 1)
    set_grads(model, grads)
    opt.update()
    assert model.l1.W.array.dtype == numpy.float16
    master = model.l1.W.update_rule._fp32_param
    assert master.array.dtype == numpy.float32
    numpy.testing.assert_allclose(
        master.array, before - 0.1 * grads['/l1/W'].astype(numpy.float32), rtol=1e-6)


def test_update_with_lossfun_computes_gradients():
    model = MLP()
    opt = optimizers.SGD(lr=0.1).setup(model)
    w0 = model.l1.W.array.copy()
    model.l1.W.grad = numpy.full_like(w0, 100.0)  # stale gradient: must be cleared

    def lossfun(scale):
        return mc.functions.sum(model.l1.W * model.l1.W) * scale

    opt.update(lossfun, 0.5)
    # d/dW (0.5 * sum(W**2)) = W
    numpy.testing.assert_allclose(model.l1.W.array, w0 - 0.1 * w0, rtol=1e-6)
    numpy.testing.assert_allclose(model.l2.W.grad, 0)  # reallocated as zeros


def test_mixed_precision_loss_scaling_static():
    model = MLP()
    opt = optimizers.SGD(lr=0.1).setup(model)
    opt.loss_scaling(scale=8.0)
    w0 = model.l1.W.array.copy()
    opt.update(lambda: mc.functions.sum(model.l1.W * model.l1.W) * 0.5)
    numpy.testing.assert_allclose(model.l1.W.array, w0 - 0.1 * w0, rtol=1e-5)


def test_dynamic_loss_scaling_skips_non_finite_steps():
    model = MLP()
    opt = optimizers.SGD(lr=0.1).setup(model)
    opt.loss_scaling(interval=2)
    assert opt._loss_scale == 1.0
    set_grads(model, grads_for(model, 1))
    opt.update()
    assert opt._loss_scale == 2.0
    before = model.l1.W.array.copy()
    grads = grads_for(model, 2)
    grads['/l1/W'][0, 0] = numpy.inf
    set_grads(model, grads)
    with pytest.warns(UserWarning, match='Non finite number'):
        opt.update()
    numpy.testing.assert_array_equal(model.l1.W.array, before)
    assert opt._loss_scale == 1.0
    with pytest.raises(ValueError):
        opt.loss_scaling(interval=0)
    with pytest.raises(ValueError):
        opt.loss_scaling(scale=0)


def test_warm_state_tolerates_missing_state_when_rule_disabled():
    model = MLP()
    opt = optimizers.Adam().setup(model)
    target = {'t': numpy.asarray(3), 'epoch': numpy.asarray(1)}
    for path in ('l1/W', 'l1/b', 'l2/W', 'l2/b'):
        target[path + '/t'] = numpy.asarray(3)
    model.l1.W.update_rule.enabled = False
    model.l1.b.update_rule.enabled = False
    model.l2.W.update_rule.enabled = False
    model.l2.b.update_rule.enabled = False
    serializers.NpzDeserializer(target).load(opt)
    assert (opt.t, opt.epoch) == (3, 1)
    assert model.l1.W.update_rule.state is None
    model.l1.W.update_rule.enabled = True
    with pytest.raises(KeyError, match='l1/W/m'):
        serializers.NpzDeserializer(target).load(opt)


def test_loaded_state_with_missing_entries_is_reinitialized():
    model = MLP()
    opt = optimizers.MomentumSGD().setup(model)
    target = {'t': numpy.asarray(0), 'epoch': numpy.asarray(0)}
    for path in ('l1/W', 'l1/b', 'l2/W', 'l2/b'):
        target[path + '/t'] = numpy.asarray(0)
        target[path + '/v'] = numpy.asarray(None)
    serializers.NpzDeserializer(target).load(opt)
    assert model.l1.W.update_rule.state is None
    _train(opt, model, [1])
    assert model.l1.W.update_rule.state['v'].shape == model.l1.W.shape


def test_no_warning_in_normal_use():
    model = MLP()
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        opt = optimizers.Adam().setup(model)
        _train(opt, model, [1, 2])


def test_adamw_decay_is_scaled_by_eta_as_chainer7():
    # chainer/chainer#7365: Adam(eta=0.5, weight_decay_rate=0.1), x = 1, grad = 1
    link = mc.Link(x=(1,))
    opt = optimizers.Adam(eta=0.5, weight_decay_rate=0.1).setup(link)
    link.x.array.fill(1)
    link.x.grad = numpy.ones_like(link.x.array)
    opt.update()
    numpy.testing.assert_allclose(link.x.array, [0.9495], atol=1e-7, rtol=1e-7)


def test_amsgrad_values_from_chainer_suite():
    link = mc.Link(x=(4,))
    link.x.array.fill(0)
    opt = optimizers.Adam(alpha=0.01, beta2=0.7, amsgrad=True).setup(link)
    link.x.grad = numpy.array([1, -1, 10, -10], numpy.float32)
    opt.update()
    numpy.testing.assert_allclose(link.x.update_rule.state['v'], [0.3, 0.3, 30, 30],
                                  rtol=1e-6)
    numpy.testing.assert_allclose(link.x.array, [-0.01, 0.01, -0.01, 0.01], atol=1e-7)
    link.x.grad = numpy.array([-10, -10, -1, -1], numpy.float32)
    opt.update()
    numpy.testing.assert_allclose(link.x.update_rule.state['vhat'],
                                  [30.21, 30.21, 30, 30], rtol=1e-6)
    numpy.testing.assert_allclose(
        link.x.array, [-0.00377703, 0.01745388, -0.01548985, 0.01686232], atol=1e-7)


@pytest.mark.parametrize('cls', [c[0] for c in CASES])
@pytest.mark.parametrize('shape', [(), (1, 0, 2)])
def test_scalar_and_empty_parameters(cls, shape):
    link = mc.Link()
    with link.init_scope():
        link.w = mc.Parameter(numpy.full(shape, 0.5, numpy.float32))
    opt = cls().setup(link)
    for _ in range(2):
        link.w.grad = numpy.full(shape, 0.25, numpy.float32)
        opt.update()
    assert link.w.shape == shape and numpy.isfinite(link.w.array).all()


def test_hyperparameter_changes_between_steps_take_effect():
    model = MLP()
    opt = optimizers.Adam(alpha=0.01).setup(model)
    params = {n: p.array.astype(numpy.float64) for n, p in model.namedparams()}
    states = {n: {} for n in params}
    settings = [({}, {}), ({'alpha': 0.05}, {}), ({'alpha': 0.05}, {'beta1': 0.5}),
                ({'alpha': 0.02}, {'beta1': 0.5})]
    for step, (global_hp, w_override) in enumerate(settings, 1):
        for k, v in global_hp.items():
            setattr(opt, k, v)
        for k, v in w_override.items():
            setattr(model.l1.W.update_rule.hyperparam, k, v)
        grads = grads_for(model, step)
        for n in params:
            kw = {'alpha': opt.alpha}
            if n == '/l1/W':
                kw.update(w_override if step < 3 else {'beta1': 0.5})
            params[n] = ref.adam(params[n], grads[n].astype(numpy.float64), states[n],
                                 step, **kw)
        set_grads(model, grads)
        opt.update()
    del model.l1.W.update_rule.hyperparam.beta1  # back to the optimizer's value
    assert model.l1.W.update_rule.hyperparam.beta1 == 0.9
    for n, p in model.namedparams():
        numpy.testing.assert_allclose(p.array, params[n], rtol=2e-5, atol=2e-6)
