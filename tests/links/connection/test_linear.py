import numpy as np
import pytest

from minichainer import gradient_check
from minichainer import initializers
import minichainer.links as L
from minichainer.variable import Variable

from .. import _util


def test_forward_matches_numpy():
    link = L.Linear(3, 2)
    x = np.random.randn(4, 3).astype(np.float32)
    y = link(x)
    assert y.shape == (4, 2) and y.dtype == np.float32
    np.testing.assert_allclose(y.array, x @ link.W.array.T + link.b.array, rtol=1e-6)


def test_parameter_shapes_and_default_initialization():
    np.random.seed(3)
    link = L.Linear(5, 4)
    assert link.W.shape == (4, 5) and link.b.shape == (4,)
    np.testing.assert_array_equal(link.W.array, _util.lecun(3, (4, 5)))
    assert (link.b.array == 0).all() and link.b.dtype == np.float32


def test_lazy_initialization_and_single_argument_form():
    np.random.seed(2)
    link = L.Linear(3)
    assert link.W.array is None and link.out_size == 3 and link.in_size is None
    x = np.ones((2, 2, 3), np.float32)
    y = link(x)
    assert link.W.shape == (3, 6) and y.shape == (2, 3)
    np.testing.assert_array_equal(link.W.array, _util.lecun(2, (3, 6)))
    assert L.Linear(None, 3).W.array is None


def test_n_batch_axes():
    link = L.Linear(None, 2)
    y = link(np.ones((2, 3, 4), np.float32), n_batch_axes=2)
    assert y.shape == (2, 3, 2) and link.W.shape == (2, 4)


def test_nobias_and_initial_values():
    W = np.arange(6, dtype=np.float32).reshape(2, 3)
    link = L.Linear(3, 2, nobias=True, initialW=W)
    assert link.b is None
    np.testing.assert_array_equal(link.W.array, W)
    link = L.Linear(3, 2, initialW=initializers.One(), initial_bias=2)
    assert (link.W.array == 1).all() and (link.b.array == 2).all()
    assert [n for n, _ in link.namedparams()] == ['/W', '/b']


def test_from_params():
    W = np.random.randn(2, 3).astype(np.float32)
    b = np.random.randn(2).astype(np.float32)
    link = L.Linear.from_params(W, b)
    np.testing.assert_array_equal(link.W.array, W)
    np.testing.assert_array_equal(link.b.array, b)
    with pytest.raises(ValueError, match='b must have 2'):
        L.Linear.from_params(W, np.zeros(3, np.float32))


def test_backward():
    link = L.Linear(3, 2)
    x = np.random.randn(4, 3)
    link.to_device('@numpy')
    W = link.W.array.astype(np.float64)
    b = link.b.array.astype(np.float64)
    link.W.array = W
    link.b.array = b
    gy = np.random.randn(4, 2)
    gradient_check.check_backward(link, x, gy, params=(link.W, link.b), atol=1e-4,
                                  rtol=1e-4)


def test_gradients_reach_parameters():
    link = L.Linear(3, 2)
    link.cleargrads()  # fresh parameters have NaN gradients, as in Chainer
    x = Variable(np.random.randn(4, 3).astype(np.float32))
    y = link(x)
    y.grad = np.ones_like(y.array)
    y.backward()
    np.testing.assert_allclose(link.W.grad, np.ones((4, 2)).T @ x.array, rtol=1e-5)
    np.testing.assert_allclose(link.b.grad, np.full(2, 4.0))


def test_serialization_and_copy(tmp_path):
    _util.check_npz_round_trip(lambda: L.Linear(3, 2), tmp_path)
    _util.check_copy_modes(L.Linear(3, 2))


def test_lazy_parameter_loads_from_npz(tmp_path):
    from minichainer import serializers
    src = L.Linear(3, 2)
    path = str(tmp_path / 'l.npz')
    serializers.save_npz(path, src)
    dst = L.Linear(2)
    serializers.load_npz(path, dst)
    np.testing.assert_array_equal(dst.W.array, src.W.array)


def test_uninitialized_parameter_is_saved_as_none(tmp_path):
    from minichainer import serializers
    src = L.Linear(2)
    path = str(tmp_path / 'l.npz')
    serializers.save_npz(path, src)
    dst = L.Linear(2)
    serializers.load_npz(path, dst)
    assert dst.W.array is None


def test_str():
    assert str(L.Linear(3, 2)) == 'Linear(in_size=3, out_size=2, nobias=False)'


@pytest.mark.parametrize('args, error, match', [
    (('a', 2), TypeError, 'in_size'), ((3, -1), ValueError, 'out_size'),
    ((3, 2.5), TypeError, 'out_size'), ((None, None), TypeError, 'out_size')])
def test_bad_sizes_are_reported(args, error, match):
    with pytest.raises(error, match=match):
        L.Linear(*args)


def test_numpy_integer_sizes_are_accepted():
    assert L.Linear(np.int64(3), np.int32(2)).W.shape == (2, 3)
