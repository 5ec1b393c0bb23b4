"""Every optimizer, its hooks, loss scaling and mixed16 on `@cupy:0` (the CuPy test double
in CI, real CuPy with MINICHAINER_TEST_REAL_CUPY=1): the same numbers as on the CPU, the
update made in place on the device, and no device-to-host copy inside a step."""
import numpy
import pytest

import minichainer as mc
from minichainer import backend
from minichainer import optimizer_hooks
from minichainer import optimizers
from minichainer.backends import cuda

from ._models import MLP, grads_for, set_grads

ALL = [
    ('SGD', {}), ('MomentumSGD', {}), ('CorrectedMomentumSGD', {}), ('NesterovAG', {}),
    ('AdaDelta', {}), ('AdaGrad', {}), ('Adam', {}), ('AdamW', {'weight_decay_rate': 0.1}),
    ('AMSGrad', {}), ('AdaBound', {}), ('AMSBound', {}), ('MSVAG', {}), ('RMSprop', {}),
    ('RMSpropGraves', {}), ('SMORMS3', {}),
]


def _host(array):
    return backend.CpuDevice().send(array)


def _no_host_copy():
    # the double's (or real CuPy's) guard: any device-to-host copy raises
    return cuda.cupyx.allow_synchronize(False)


def _tolerance(device):
    import cupy_double
    # the double computes with NumPy (bit for bit the CPU); a GPU rounds differently
    return 0 if cupy_double.is_double(device.xp) else 1e-5


def _run(make_optimizer, device, steps=3, hooks=(), dtype=numpy.float32):
    model = MLP(dtype=dtype)
    opt = make_optimizer()
    opt.setup(model)
    for hook in hooks:
        opt.add_hook(hook)
    if device is not None:
        model.to_device(device)
    for step in range(steps):
        grads = grads_for(model, step)
        if device is None:
            set_grads(model, grads)
            opt.update()
        else:
            for name, p in model.namedparams():
                p.grad = device.send(grads[name])
            with _no_host_copy():
                opt.update()
    return model, opt


@pytest.mark.parametrize('name,kwargs', ALL, ids=[n for n, _ in ALL])
def test_optimizer_step_on_cupy_equals_cpu(cupy_device, name, kwargs):
    make = lambda: getattr(optimizers, name)(**kwargs)  # noqa: E731
    cpu_model, _ = _run(make, None)
    gpu_model, gpu_opt = _run(make, cupy_device)
    tol = _tolerance(cupy_device)
    if name == 'MSVAG':
        # its factor mt2 / (mt2 + rho * s) starts from s = vt - mt2 ~ 0: one ulp of
        # rounding (x ** 2 as pow or as x * x) moves it by ~1e-5
        tol = 1e-4
    for (pname, p), (_, q) in zip(cpu_model.namedparams(), gpu_model.namedparams()):
        assert isinstance(q.array, cupy_device.xp.ndarray), pname
        numpy.testing.assert_allclose(_host(q.array), p.array, rtol=tol, atol=tol,
                                      err_msg='{} {}'.format(name, pname))
        rule = q.update_rule
        for key, value in rule.state.items():
            if hasattr(value, 'shape'):
                assert isinstance(value, cupy_device.xp.ndarray), (name, key)


def test_update_in_place_on_cupy(cupy_device):
    model = MLP()
    opt = optimizers.Adam()
    opt.setup(model)
    model.to_device(cupy_device)
    arrays = {name: p.array for name, p in model.namedparams()}
    for name, p in model.namedparams():
        p.grad = cupy_device.xp.ones_like(p.array)
    opt.update()
    for name, p in model.namedparams():
        assert p.array is arrays[name]  # updated in place, not replaced


HOOKS = [
    ('WeightDecay', lambda: optimizer_hooks.WeightDecay(0.01)),
    ('Lasso', lambda: optimizer_hooks.Lasso(0.01)),
    ('GradientClipping', lambda: optimizer_hooks.GradientClipping(0.5)),
    ('GradientClipping-large', lambda: optimizer_hooks.GradientClipping(1e6)),
    ('GradientHardClipping', lambda: optimizer_hooks.GradientHardClipping(-0.3, 0.3)),
    ('GradientLARS', lambda: optimizer_hooks.GradientLARS(threshold=0.1,
                                                           weight_decay=0.01)),
]


@pytest.mark.parametrize('make_hook', [h for _, h in HOOKS], ids=[n for n, _ in HOOKS])
def test_hook_on_cupy_equals_cpu(cupy_device, make_hook):
    make = lambda: optimizers.MomentumSGD(lr=0.1)  # noqa: E731
    cpu_model, _ = _run(make, None, hooks=[make_hook()])
    gpu_model, _ = _run(make, cupy_device, hooks=[make_hook()])
    tol = max(_tolerance(cupy_device), 1e-6)  # norms summed in another order
    for (pname, p), (_, q) in zip(cpu_model.namedparams(), gpu_model.namedparams()):
        numpy.testing.assert_allclose(_host(q.array), p.array, rtol=tol, atol=tol,
                                      err_msg=pname)


def test_gradient_noise_on_cupy_draws_from_the_device(cupy_device):
    xp = cupy_device.xp
    model = MLP()
    opt = optimizers.SGD(lr=1.0)
    opt.setup(model)
    opt.add_hook(optimizer_hooks.GradientNoise(0.3))
    model.to_device(cupy_device)
    before = {name: _host(p.array) for name, p in model.namedparams()}
    numpy_state = numpy.random.get_state()
    for name, p in model.namedparams():
        p.grad = xp.zeros_like(p.array)
    with _no_host_copy():
        opt.update()
    # the noise came from cupy.random, not numpy's generator
    assert numpy.array_equal(numpy.random.get_state()[1], numpy_state[1])
    changed = [not numpy.array_equal(_host(p.array), before[name])
               for name, p in model.namedparams()]
    assert all(changed)


def _update_on_cpu_and_feed(cpu_model, cpu_opt, device_model, device, step):
    # One CPU update with the gradients of `step`; the device model gets the same ones.
    grads = grads_for(cpu_model, step)
    set_grads(cpu_model, grads)
    cpu_opt.update()
    for name, p in device_model.namedparams():
        p.grad = device.send(grads[name])


def test_dynamic_loss_scaling_on_cupy_one_host_copy_per_update(cupy_device):
    import cupy_double
    xp = cupy_device.xp
    model = MLP()
    opt = optimizers.SGD(lr=0.1)
    opt.setup(model)
    opt.loss_scaling()
    model.to_device(cupy_device)
    cpu = MLP()
    cpu_opt = optimizers.SGD(lr=0.1)
    cpu_opt.setup(cpu)
    cpu_opt.loss_scaling()
    for step in range(2):
        _update_on_cpu_and_feed(cpu, cpu_opt, model, cupy_device, step)
        before = cupy_double.host_transfers() if cupy_double.is_double(xp) else None
        opt.update()
        if before is not None:
            assert cupy_double.host_transfers() - before == 1  # all the flags at once
    assert opt._loss_scale == cpu_opt._loss_scale
    # a non-finite gradient halves the scale and skips the update, as on the CPU
    params = list(model.params())
    params[0].grad = xp.full(params[0].shape, numpy.inf, dtype=numpy.float32)
    for p in params[1:]:
        p.grad = xp.zeros_like(p.array)
    kept = [_host(p.array) for p in params]
    scale = opt._loss_scale
    with pytest.warns(UserWarning, match='Non finite'):
        opt.update()
    assert opt._loss_scale == scale / 2
    for p, k in zip(params, kept):
        assert numpy.array_equal(_host(p.array), k)


def test_mixed16_fp32_update_on_cupy(cupy_device):
    def build(device):
        with mc.using_config('dtype', mc.mixed16):
            model = MLP(dtype=numpy.float16)
        opt = optimizers.Adam(alpha=0.01)
        opt.setup(model)
        opt.use_fp32_update()
        if device is not None:
            model.to_device(device)
        return model, opt

    (cpu_model, cpu_opt), (gpu_model, gpu_opt) = build(None), build(cupy_device)
    for step in range(2):
        _update_on_cpu_and_feed(cpu_model, cpu_opt, gpu_model, cupy_device, step)
        with _no_host_copy():
            gpu_opt.update()
    tol = 0 if _tolerance(cupy_device) == 0 else 1e-3
    for (pname, p), (_, q) in zip(cpu_model.namedparams(), gpu_model.namedparams()):
        assert q.array.dtype == numpy.float16
        master = q.update_rule._fp32_param.array
        assert isinstance(master, cupy_device.xp.ndarray) and master.dtype == numpy.float32
        numpy.testing.assert_allclose(_host(q.array), p.array, rtol=tol, atol=tol,
                                      err_msg=pname)


def test_state_follows_parameter_to_and_from_cupy(cupy_device):
    xp = cupy_device.xp
    cpu_model, _ = _run(optimizers.Adam, None, steps=3)
    model = MLP()
    opt = optimizers.Adam()
    opt.setup(model)
    for step in range(3):
        set_grads(model, grads_for(model, step))
        if step == 1:  # state made on the CPU, then the model moves to the GPU
            model.to_device(cupy_device)
            for name, p in model.namedparams():
                p.grad = cupy_device.send(grads_for(model, step)[name])
        opt.update()
        if step == 1:
            for p in model.params():
                assert all(isinstance(v, xp.ndarray) for v in p.update_rule.state.values())
        if step == 1:
            model.to_device('@numpy')  # and back to the CPU for the last step
    for (pname, p), (_, q) in zip(cpu_model.namedparams(), model.namedparams()):
        assert isinstance(q.array, numpy.ndarray)
        assert all(isinstance(v, numpy.ndarray) for v in q.update_rule.state.values())
        numpy.testing.assert_allclose(q.array, p.array, rtol=1e-6, atol=1e-7,
                                      err_msg=pname)
