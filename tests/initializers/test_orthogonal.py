import numpy as np
import pytest

from minichainer import initializers


def _reference(seed, scale, shape):
    # Hand-written: QR of the standard-normal draw (transposed when wide), sign fix.
    np.random.seed(seed)
    out_dim = shape[0]
    in_dim = int(np.prod(shape[1:]))
    a = np.random.normal(size=(out_dim, in_dim))
    transpose = in_dim > out_dim
    if transpose:
        a = a.T
    q, r = np.linalg.qr(a)
    q = q * np.copysign(scale, np.diag(r))
    if transpose:
        q = q.T
    return q.reshape(shape)


@pytest.mark.parametrize('shape', [(3, 5), (5, 3), (4, 4), (2, 3, 2)])
def test_orthogonal_matches_reference_and_is_orthogonal(shape):
    a = np.empty(shape, np.float64)
    np.random.seed(2)
    initializers.Orthogonal(scale=1.1)(a)
    np.testing.assert_allclose(a, _reference(2, 1.1, shape), rtol=1e-12, atol=1e-12)
    m = a.reshape(shape[0], -1)
    if m.shape[0] <= m.shape[1]:
        np.testing.assert_allclose(m @ m.T, 1.21 * np.eye(m.shape[0]), atol=1e-10)
    else:
        np.testing.assert_allclose(m.T @ m, 1.21 * np.eye(m.shape[1]), atol=1e-10)


def test_orthogonal_scalar_and_empty():
    a = np.empty((), np.float32)
    initializers.Orthogonal(scale=2.0)(a)
    assert abs(float(a)) == 2.0
    with pytest.raises(ValueError, match='must be non-empty'):
        initializers.Orthogonal()(np.empty((0, 3), np.float32))


@pytest.mark.parametrize('mode, shape', [('embedding', (2, 3)), ('projection', (3, 2)),
                                         ('basis', (2, 3))])
def test_orthogonal_mode_checks(mode, shape):
    with pytest.raises(ValueError, match=mode):
        initializers.Orthogonal(mode=mode)(np.empty(shape, np.float32))


def test_orthogonal_unknown_mode():
    with pytest.raises(ValueError, match='mode'):
        initializers.Orthogonal(mode='square')


def test_orthogonal_with_numpy_generator():
    rng = np.random.default_rng(0)
    a = np.empty((2, 3), np.float64)
    initializers.Orthogonal(scale=1.0, rng=rng)(a)
    np.testing.assert_allclose(a @ a.T, np.eye(2), atol=1e-10)
    s = np.empty((), np.float32)
    initializers.Orthogonal(scale=3.0, rng=np.random.default_rng(1))(s)
    assert abs(float(s)) == 3.0
