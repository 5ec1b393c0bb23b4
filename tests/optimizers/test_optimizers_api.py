"""Behaviour that Chainer's own optimizer tests rely on, for every optimizer."""
import numpy
import pytest

import minichainer as mc
from minichainer import optimizers

ALL = [optimizers.AdaDelta, optimizers.AdaGrad, optimizers.Adam,
       optimizers.CorrectedMomentumSGD, optimizers.MomentumSGD, optimizers.MSVAG,
       optimizers.NesterovAG, optimizers.RMSprop, optimizers.RMSpropGraves,
       optimizers.SGD, optimizers.SMORMS3, optimizers.AdamW, optimizers.AMSGrad,
       optimizers.AdaBound, optimizers.AMSBound]


class Quadratic(mc.Chain):
    def __init__(self, shape=()):
        super().__init__()
        with self.init_scope():
            self.w = mc.Parameter(numpy.full(shape, 0.5, numpy.float32), name='w')

    def forward(self, x):
        return mc.functions.sum((x - self.w) ** 2)


@pytest.mark.parametrize('cls', ALL)
def test_constructor_arguments_reach_the_update_rules(cls):
    link = mc.Link()
    with link.init_scope():
        link.w = mc.Parameter()  # uninitialized, as in Chainer's test
    defaults = cls().hyperparam.get_dict()
    for name, default in defaults.items():
        opt = cls().setup(link)
        assert getattr(link.w.update_rule.hyperparam, name) == default
        assert getattr(opt, name) == default  # the proxy
        if cls in (optimizers.AdamW, optimizers.AMSGrad, optimizers.AdaBound,
                   optimizers.AMSBound) and name in ('amsgrad', 'adabound',
                                                     'weight_decay_rate', 'final_lr',
                                                     'gamma'):
            continue  # fixed by the subclass or not in its signature
        cls(**{name: default + 0.1}).setup(link)
        assert getattr(link.w.update_rule.hyperparam, name) == default + 0.1


@pytest.mark.parametrize('cls', ALL)
def test_pre_hooks_see_old_and_post_hooks_new_parameters(cls):
    class Save:
        call_for_each_param = True

        def __init__(self, name, timing=None):
            self.name = name
            if timing:
                self.timing = timing
            self.value = None

        def __call__(self, rule, param):
            self.value = param.array.copy()

    target = Quadratic()
    w_pre = target.w.array.copy()
    pre, post = Save('pre', 'pre'), Save('post', 'post')
    opt = cls().setup(target)
    opt.add_hook(pre)          # timing='auto' reads the attribute
    opt.add_hook(post)
    opt.update(target, mc.Variable(numpy.array(5., numpy.float32)))
    assert pre.value == w_pre
    assert post.value == target.w.array
    assert pre.value != post.value


@pytest.mark.parametrize('cls', ALL)
@pytest.mark.parametrize('shape', [(2, 3), (), (1, 0, 2)])
def test_update_with_a_loss_function(cls, shape):
    target = Quadratic(shape)
    opt = cls().setup(target)
    x = mc.Variable(numpy.ones(shape, numpy.float32))
    opt.update(target, x)
    opt.update(target, x)
    assert opt.t == 2 and target.w.update_rule.t == 2
    assert numpy.isfinite(target.w.array).all()


@pytest.mark.parametrize('cls', ALL)
def test_setup_rejects_non_links_with_chainers_message(cls):
    with pytest.raises(TypeError, match='optimization target must be a link'):
        cls().setup('xxx')
