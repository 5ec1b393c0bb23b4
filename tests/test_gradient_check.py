import numpy
import pytest

import minichainer
import minichainer.functions as F
from minichainer import FunctionNode, Variable, gradient_check


class WrongGrad(FunctionNode):
    """y = x ** 2 with a gradient that is off by a factor of 1.5."""

    def forward(self, inputs):
        self.retain_inputs((0,))
        return inputs[0] ** 2,

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return grad_outputs[0] * x * 3.0,


class CorrectFirstWrongSecond(FunctionNode):
    """y = x ** 2; first-order gradient right, its own gradient wrong (built from arrays)."""

    def forward(self, inputs):
        self.retain_inputs((0,))
        return inputs[0] ** 2,

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        # Correct value, but computed outside the graph of x: not differentiable w.r.t. x.
        return grad_outputs[0] * Variable(2 * x.array),


def _x(shape=(3, 2), seed=0):
    return numpy.random.RandomState(seed).uniform(0.5, 1.5, shape)


def test_numerical_grad():
    x = _x()
    gy = numpy.random.RandomState(1).randn(*x.shape)
    gx, = gradient_check.numerical_grad(lambda: (x ** 3,), (x,), (gy,))
    numpy.testing.assert_allclose(gx, 3 * x ** 2 * gy, rtol=1e-5)


def test_numerical_grad_detects_kink():
    x = numpy.array([0.0, 1.0])
    with pytest.raises(gradient_check.NondifferentiableError):
        gradient_check.numerical_grad(lambda: (numpy.abs(x),), (x,), (numpy.ones(2),),
                                      detect_nondifferentiable=True)


def test_check_backward_passes_for_correct_gradient():
    x = _x()
    gy = numpy.random.randn(*x.shape)
    gradient_check.check_backward(lambda a: a * a * a, x, gy)


def test_check_backward_scalar_output_without_y_grad():
    gradient_check.check_backward(lambda a: F.sum(a * a), _x(), None)


def test_check_backward_fails_for_wrong_gradient():
    x = _x()
    gy = numpy.random.randn(*x.shape)
    with pytest.raises(AssertionError, match='check_backward failed'):
        gradient_check.check_backward(lambda a: WrongGrad().apply((a,))[0], x, gy)


def test_check_backward_with_params():
    w = minichainer.Parameter(_x((2,)))
    gradient_check.check_backward(lambda a: a * F.broadcast_to(w, a.shape), _x(), _x(),
                                  params=(w,))


def test_check_backward_detects_wrong_param_gradient():
    w = minichainer.Parameter(_x((3, 2)))
    with pytest.raises(AssertionError):
        gradient_check.check_backward(lambda a: WrongGrad().apply((w,))[0] + a, _x(), _x(),
                                      params=(w,))


def test_check_backward_int_input_is_not_checked():
    x = _x((4,))
    idx = numpy.array([0, 2])
    gradient_check.check_backward(lambda a, i: a[i.array] * 2, (x, idx), numpy.ones(2))


def test_check_backward_zero_dim_input():
    gradient_check.check_backward(F.square, numpy.array(0.5), numpy.array(1.0))


def test_check_backward_dtype_option_float16():
    x = _x().astype(numpy.float16)
    gy = numpy.ones_like(x)
    gradient_check.check_backward(lambda a: a * 2, x, gy, dtype=numpy.float64,
                                  atol=1e-3, rtol=1e-2)


def test_check_backward_detect_nondifferentiable():
    x = numpy.array([0.0, 1.0])
    with pytest.raises(gradient_check.NondifferentiableError):
        gradient_check.check_backward(abs, x, numpy.ones(2), detect_nondifferentiable=True)


def test_check_backward_bad_args():
    with pytest.raises(TypeError):
        gradient_check.check_backward(lambda a: a, [1.0], None)
    with pytest.raises(ValueError):
        gradient_check.check_backward(lambda a: a * 2, _x(), None)


def test_check_double_backward_passes():
    x = _x()
    gy = numpy.random.randn(*x.shape)
    ggx = numpy.random.randn(*x.shape)
    gradient_check.check_double_backward(lambda a: a * a * a, x, gy, ggx)


def test_check_double_backward_fails_when_grad_not_differentiable():
    x = _x()
    gy = numpy.random.randn(*x.shape)
    ggx = numpy.random.randn(*x.shape)
    with pytest.raises(AssertionError):
        gradient_check.check_double_backward(
            lambda a: CorrectFirstWrongSecond().apply((a,))[0], x, gy, ggx)


def test_check_double_backward_none_y_grad():
    x = _x()
    gradient_check.check_double_backward(lambda a: (a * 2, a * a), x,
                                         (None, numpy.ones_like(x)), numpy.ones_like(x))


def test_check_backward_dtype_casts_params():
    import minichainer.links as L
    link = L.Linear(3, 2)
    link.W.array = link.W.array.astype(numpy.float16)
    link.b.array = link.b.array.astype(numpy.float16)
    x = numpy.random.uniform(-1, 1, (4, 3)).astype(numpy.float16)
    gy = numpy.random.uniform(-1, 1, (4, 2)).astype(numpy.float16)
    w_before = link.W.array
    gradient_check.check_backward(link, x, gy, params=(link.W, link.b), dtype=numpy.float64,
                                  atol=1e-2, rtol=1e-1)
    assert link.W.array is w_before and link.W.dtype == numpy.float16


class _Float32Only(minichainer.FunctionNode):
    """Doubles x; its type check accepts float32 only."""

    def check_type_forward(self, in_types):
        from minichainer.utils import type_check
        type_check.expect(in_types[0].dtype == numpy.float32)

    def forward(self, inputs):
        return inputs[0] * 2,

    def backward(self, indexes, grad_outputs):
        return grad_outputs[0] * 2,


def test_numerical_estimate_runs_without_type_checks():
    # check_backward(dtype=float64) and numerical_grad evaluate the function on float64
    # inputs; as in Chainer, type checks are off there (the analytic pass keeps them).
    x = numpy.array([1., 2.], numpy.float32)
    gy = numpy.array([1., -1.], numpy.float32)
    gradient_check.check_backward(lambda x: _Float32Only().apply((x,))[0], x, gy,
                                  dtype=numpy.float64)
    x64 = x.astype(numpy.float64)
    gx, = gradient_check.numerical_grad(
        lambda: (_Float32Only().apply((x64,))[0].array,), (x64,), (gy,))
    numpy.testing.assert_allclose(gx, [2., -2.])
    from minichainer.utils import type_check
    with pytest.raises(type_check.InvalidType):
        _Float32Only().apply((x64,))


def test_nondifferentiable_detection_matches_chainer_near_kinks():
    # Chainer 7.8.1's outcomes (ok / NondifferentiableError) for these seeded double
    # backward checks next to the kink at 0: the same random direction (one normal draw,
    # Chainer's normalization), five sample points and quadratic-fit test give the same
    # verdicts.
    expected = ('ok ok No ok ok ok ok ok No ok ok ok ok ok No ok ok ok '
                'No No No ok ok ok No No No ok ok ok No No No ok ok ok').split()
    got = []
    for seed in (4, 5):
        for f in (lambda x: F.leaky_relu(x, 0.3), lambda x: F.relu(x) * 2, F.absolute):
            for value in (-4e-4, 9e-4):
                for shape in ((), (1,), (3,)):
                    numpy.random.seed(seed)
                    x = numpy.full(shape, value)
                    try:
                        gradient_check.check_double_backward(
                            f, x, numpy.full(shape, .7), numpy.full(shape, .5),
                            atol=5e-4, rtol=5e-3, detect_nondifferentiable=True)
                        got.append('ok')
                    except gradient_check.NondifferentiableError:
                        got.append('No')
    assert got == expected
