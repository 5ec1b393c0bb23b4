import pytest

from minichainer.serializers import npz
from minichainer.testing.training import get_trainer_with_mock_updater
from minichainer.training import extensions


class _Opt:
    def __init__(self, lr=1.0):
        self.lr = lr


def _values(ext, opt, n):
    trainer = get_trainer_with_mock_updater()
    ext.initialize(trainer)
    out = [opt.lr]
    for _ in range(n):
        ext(trainer)
        out.append(opt.lr)
    return out


def _resume(make, n_before, n_after):
    """Values of a shift interrupted after ``n_before`` calls and resumed."""
    opt = _Opt(0.5)
    ext = make(opt)
    before = _values(ext, opt, n_before)
    s = npz.DictionarySerializer()
    ext.serialize(s)
    opt2 = _Opt(0.5)
    ext2 = make(opt2)
    ext2.serialize(npz.NpzDeserializer(s.target))
    after = _values(ext2, opt2, n_after)
    return before + after[1:], after[0]


@pytest.mark.parametrize('make,expected', [
    (lambda o: extensions.ExponentialShift('lr', 0.5, optimizer=o),
     [0.5, 0.25, 0.125, 0.0625]),
    (lambda o: extensions.ExponentialShift('lr', 0.5, init=2.0, target=0.6, optimizer=o),
     [2.0, 1.0, 0.6, 0.6]),
    (lambda o: extensions.ExponentialShift('lr', 2, target=1.5, optimizer=o),
     [0.5, 1.0, 1.5, 1.5]),
    (lambda o: extensions.LinearShift('lr', (1.0, 2.0), (1, 3), optimizer=o),
     [1.0, 1.0, 1.5, 2.0]),
    (lambda o: extensions.StepShift('lr', 0.1, 2, optimizer=o),
     [0.5, 0.5, 0.05, 0.05]),
    (lambda o: extensions.MultistepShift('lr', 0.1, [1, 3], 1.0, optimizer=o),
     [1.0, 0.1, 0.1, 0.01]),
    (lambda o: extensions.PolynomialShift('lr', 1.0, 2, optimizer=o),
     [0.5, 0.25, 0.0, 0.0]),
    (lambda o: extensions.PolynomialShift('lr', 1.0, 4, target=0.3, optimizer=o),
     [0.5, 0.375, 0.3, 0.3]),
    (lambda o: extensions.WarmupShift('lr', 0.1, 2, 0.5, optimizer=o),
     [0.1, 0.3, 0.5, 0.5]),
    (lambda o: extensions.InverseShift('lr', 1.0, 1.0, optimizer=o),
     [0.5, 0.25, 0.5 / 3, 0.125]),
    (lambda o: extensions.InverseShift('lr', 1.0, 1.0, target=0.2, optimizer=o),
     [0.5, 0.25, 0.2, 0.2]),
])
def test_shift_values_and_resume(make, expected):
    opt = _Opt(0.5)
    assert _values(make(opt), opt, 3) == pytest.approx(expected)
    resumed, first_after_resume = _resume(make, 2, 1)
    assert resumed == pytest.approx(expected)
    # initialize after a resume re-applies the last value
    assert first_after_resume == pytest.approx(expected[2])


def test_polynomial_shift_rate():
    opt = _Opt(1.0)
    vals = _values(extensions.PolynomialShift('lr', 0.5, 4, optimizer=opt), opt, 2)
    assert vals == pytest.approx([1.0, 0.75 ** 0.5, 0.5 ** 0.5])


def test_shift_uses_main_optimizer_by_default():
    trainer = get_trainer_with_mock_updater()
    opt = _Opt(1.0)
    trainer.updater.get_optimizer = lambda name: {'main': opt}[name]
    ext = extensions.ExponentialShift('lr', 0.5)
    ext.initialize(trainer)
    ext(trainer)
    assert opt.lr == 0.5


def test_bad_arguments():
    with pytest.raises(ValueError, match='negative rate'):
        extensions.ExponentialShift('lr', -1)
    with pytest.raises(ValueError, match='negative gamma'):
        extensions.InverseShift('lr', -1, 1)
