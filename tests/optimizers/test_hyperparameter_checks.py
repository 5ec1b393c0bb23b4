"""Out-of-range hyperparameters of optimizers and optimizer hooks are named."""
import numpy as np
import pytest

import minichainer as mc
from minichainer import optimizer_hooks
from minichainer import optimizers
from minichainer.optimizers import adam
from minichainer.optimizers import sgd

O = optimizers


@pytest.mark.parametrize('make,error,match', [
    (lambda: O.Adam(alpha=-1), ValueError, r'Adam: alpha must be a non-negative number, '
                                           r'got -1'),
    (lambda: O.SGD(lr=-1), ValueError, 'SGD: lr must be a non-negative number, got -1'),
    (lambda: O.Adam(eps=0), ValueError, 'Adam: eps must be a positive number, got 0'),
    (lambda: O.Adam(eps=-1e-8), ValueError, 'eps must be a positive number'),
    (lambda: O.AdaGrad(eps=0.0), ValueError, 'AdaGrad: eps must be a positive'),
    (lambda: O.RMSprop(eps=0), ValueError, 'RMSprop: eps'),
    (lambda: O.SMORMS3(lr=-0.1), ValueError, 'SMORMS3: lr'),
    (lambda: O.AdaDelta(rho=-0.5), ValueError, r'AdaDelta: rho must be a number in '
                                               r'\[0, 1\], got -0.5'),
    (lambda: O.MomentumSGD(momentum=-0.9), ValueError, 'MomentumSGD: momentum'),
    (lambda: O.NesterovAG(lr=-1), ValueError, 'NesterovAG: lr'),
    (lambda: O.CorrectedMomentumSGD(lr=float('nan')), ValueError,
     'CorrectedMomentumSGD: lr.*nan'),
    (lambda: O.MSVAG(beta=-0.1), ValueError, r'MSVAG: beta must be a number in \[0, 1\)'),
    (lambda: O.RMSpropGraves(momentum=-1), ValueError, 'RMSpropGraves: momentum'),
    (lambda: O.AdamW(weight_decay_rate=-0.01), ValueError, 'AdamW: weight_decay_rate'),
    (lambda: O.AdaBound(gamma=0), ValueError, 'AdaBound: gamma must be a positive'),
    (lambda: O.AMSBound(final_lr=-1), ValueError, 'AMSBound: final_lr'),
    (lambda: O.Adam(eta=-1), ValueError, 'Adam: eta'),
    (lambda: O.SGD(lr='0.1'), TypeError, "SGD: lr must be a non-negative number, got "
                                         "'0.1' of type str"),
    (lambda: O.Adam(alpha=float('inf')), ValueError, 'alpha.*inf'),
    (lambda: adam.AdamRule(beta1=-1), ValueError, 'AdamRule: beta1'),
    (lambda: sgd.SGDRule(lr=-1), ValueError, 'SGDRule: lr'),
    (lambda: optimizer_hooks.WeightDecay(-1), ValueError,
     'WeightDecay: rate must be a non-negative number, got -1'),
    (lambda: optimizer_hooks.Lasso(-0.1), ValueError, 'Lasso: rate'),
    (lambda: optimizer_hooks.GradientClipping(-1), ValueError,
     'GradientClipping: threshold must be a non-negative number, got -1'),
    (lambda: optimizer_hooks.GradientClipping('5'), TypeError, 'GradientClipping'),
    (lambda: optimizer_hooks.GradientHardClipping(1, -1), ValueError,
     'lower_bound must not exceed upper_bound, got lower_bound=1 and upper_bound=-1'),
    (lambda: optimizer_hooks.GradientLARS(threshold=-1), ValueError, 'GradientLARS'),
    (lambda: optimizer_hooks.GradientLARS(weight_decay=-1), ValueError, 'weight_decay'),
    (lambda: optimizer_hooks.GradientNoise(-0.1), ValueError, 'GradientNoise: eta'),
    (lambda: optimizer_hooks.GradientNoise(0.1, noise_func=3), TypeError, 'noise_func'),
])
def test_bad_hyperparameter_raises_at_construction(make, error, match):
    with pytest.raises(error, match=match):
        make()


class _Quadratic(mc.Chain):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.w = mc.Parameter(np.full(3, 0.5, np.float32))

    def forward(self):
        return mc.functions.sum(self.w * self.w)


@pytest.mark.parametrize('make,match', [
    (lambda: O.Adam(beta1=1.5), r'Adam: beta1 must be a number in \[0, 1\), got 1.5'),
    (lambda: O.Adam(beta2=1.0), r'Adam: beta2 .*got 1.0'),
    (lambda: O.AMSGrad(beta1=1), 'Adam: beta1'),
    (lambda: O.AdaDelta(rho=1.5), 'AdaDelta: rho'),
    (lambda: O.MomentumSGD(momentum=1.5), r'MomentumSGD: momentum must be a number in '
                                          r'\[0, 1\]'),
    (lambda: O.MSVAG(beta=1), 'MSVAG: beta'),
    (lambda: O.RMSprop(alpha=1.2), r'RMSprop: alpha must be a number in \[0, 1\]'),
    (lambda: O.RMSpropGraves(alpha=2), 'RMSpropGraves: alpha'),
])
def test_rate_above_its_range_raises_before_the_first_update(make, match):
    # Chainer's own tests construct each optimizer with every default + 0.1 (e.g.
    # beta2=1.099) and read the value back, so the upper end is checked here.
    opt = make()
    model = _Quadratic()
    opt.setup(model)
    before = model.w.array.copy()
    with pytest.raises(ValueError, match=match):
        opt.update(model)
    np.testing.assert_array_equal(model.w.array, before)


@pytest.mark.parametrize('make', [
    lambda: O.SGD(lr=0), lambda: O.Adam(beta1=0, beta2=0.5), lambda: O.MomentumSGD(
        momentum=1.0), lambda: O.RMSprop(alpha=1.0), lambda: O.AdaDelta(rho=1.0),
    lambda: O.Adam(alpha=np.float32(1e-3), eps=np.array(1e-8)),
])
def test_edge_values_are_accepted(make):
    opt = make()
    model = _Quadratic()
    opt.setup(model)
    opt.update(model)


def test_hook_edge_values_are_accepted():
    optimizer_hooks.WeightDecay(0)
    optimizer_hooks.GradientClipping(0)
    optimizer_hooks.GradientHardClipping(-1, 1)
    optimizer_hooks.GradientHardClipping(0.5, 0.5)
    optimizer_hooks.GradientLARS(eps=0)


def test_shift_extensions_may_still_set_any_value():
    # Only constructors and the first update check: shifts change values freely.
    opt = O.SGD(lr=0.1)
    opt.lr = -0.5
    assert opt.lr == -0.5
