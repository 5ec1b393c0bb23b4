import numpy as np
import pytest

import minichainer.links as L

from .. import _util


def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


def _lin(link, x):
    return x @ link.W.array.T + link.b.array


def gru_ref(link, h, x):
    r = _sigmoid(_lin(link.W_r, x) + _lin(link.U_r, h))
    z = _sigmoid(_lin(link.W_z, x) + _lin(link.U_z, h))
    h_bar = np.tanh(_lin(link.W, x) + _lin(link.U, r * h))
    return (1 - z) * h + z * h_bar


def test_stateless_gru():
    link = L.StatelessGRU(3, 4)
    h = np.random.randn(2, 4).astype(np.float32)
    x = np.random.randn(2, 3).astype(np.float32)
    np.testing.assert_allclose(link(h, x).array, gru_ref(link, h, x), rtol=1e-5,
                               atol=1e-6)


def test_stateful_gru_and_alias():
    for cls in (L.StatefulGRU, L.GRU):
        link = cls(3, 2)
        x = np.random.randn(2, 3).astype(np.float32)
        h1 = link(x)
        z = _sigmoid(_lin(link.W_z, x))
        np.testing.assert_allclose(h1.array, z * np.tanh(_lin(link.W, x)), rtol=1e-5,
                                   atol=1e-6)
        h2 = link(x)
        np.testing.assert_allclose(h2.array, gru_ref(link, h1.array, x), rtol=1e-5,
                                   atol=1e-6)
        link.reset_state()
        assert link.h is None
    with pytest.raises(ValueError, match='StatelessGRU'):
        L.GRU(3, 2)(np.zeros((1, 2), np.float32), np.zeros((1, 3), np.float32))


def test_initialization_order():
    np.random.seed(4)
    link = L.StatelessGRU(3, 2)
    np.random.seed(4)
    for name, n_in in [('W_r', 3), ('U_r', 2), ('W_z', 3), ('U_z', 2), ('W', 3), ('U', 2)]:
        expected = np.random.normal(0, np.sqrt(1. / n_in), (2, n_in)).astype(np.float32)
        np.testing.assert_array_equal(getattr(link, name).W.array, expected, err_msg=name)


def test_set_state():
    from minichainer.variable import Variable
    link = L.StatefulGRU(2, 2)
    link.set_state(Variable(np.ones((1, 2), np.float32)))
    assert link(np.zeros((1, 2), np.float32)).shape == (1, 2)
    with pytest.raises(TypeError, match='Variable'):
        link.set_state(np.ones((1, 2)))


def test_serialization_and_copy(tmp_path):
    _util.check_npz_round_trip(lambda: L.StatefulGRU(3, 2), tmp_path)
    _util.check_copy_modes(L.StatelessGRU(3, 2))
