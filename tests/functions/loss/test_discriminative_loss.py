import importlib

import numpy
import pytest

import minichainer
import minichainer.functions as F
from minichainer import gradient_check

_module = importlib.import_module('minichainer.functions.loss.discriminative_loss')


def _norm(v, norm, axis):
    return numpy.abs(v).sum(axis) if norm == 1 else numpy.sqrt((v ** 2).sum(axis))


def _reference(emb, labels, delta_v, delta_d, norm, alpha, beta, gamma):
    """Chainer's three terms written out with loops over images and clusters."""
    batch, n_clusters = emb.shape[:2]
    relu = lambda v: numpy.maximum(v, 0)  # noqa: E731
    means = numpy.zeros((n_clusters, batch, n_clusters))
    for k in range(n_clusters):
        for b in range(batch):
            pixels = emb[b][:, labels[b] == k + 1]
            if pixels.shape[1]:
                means[k, b] = pixels.mean(axis=1)
    l_reg = sum(_norm(means[k], norm, None) for k in range(n_clusters))
    l_reg /= n_clusters * batch
    l_var = 0.0
    for k in range(n_clusters):
        total = 0.0
        count = 0
        for b in range(batch):
            for y in range(emb.shape[2]):
                for x in range(emb.shape[3]):
                    inside = labels[b, y, x] == k + 1
                    count += inside
                    d = _norm(means[k, b] - emb[b, :, y, x], norm, None) if inside else 0.0
                    total += relu(d - delta_v) ** 2
        l_var += total / max(count, 1)
    l_var /= n_clusters
    l_dist = 0.0
    pairs = 0
    for k in range(n_clusters):
        for m in range(k + 1, n_clusters):
            d = _norm(means[k] - means[m], norm, 1)
            l_dist += (relu(2 * delta_d - d) ** 2).sum()
            pairs += 1
    l_dist /= max(pairs * batch, 1)
    return alpha * l_var, beta * l_dist, gamma * l_reg


def _data(batch, dim, height=3, width=4, seed=0, dtype=numpy.float64):
    rng = numpy.random.RandomState(seed)
    emb = rng.randn(batch, dim, height, width).astype(dtype)
    labels = rng.randint(0, dim + 2, (batch, height, width)).astype(numpy.int32)
    return emb, labels


@pytest.mark.parametrize('batch, dim', [(3, 3), (1, 4), (2, 3), (4, 2)])
@pytest.mark.parametrize('norm', [1, 2])
@pytest.mark.parametrize('delta_v', [0.3, -0.2])
def test_forward_matches_reference(batch, dim, norm, delta_v):
    emb, labels = _data(batch, dim, seed=batch * 10 + dim)
    args = (delta_v, 1.2, norm, 0.5, 2.0, 0.1)
    got = F.discriminative_margin_based_clustering_loss(
        emb, labels, args[0], args[1], dim, *args[2:])
    expected = _reference(emb, labels, *args)
    assert len(got) == 3
    for g, e in zip(got, expected):
        assert isinstance(g, minichainer.Variable) and g.shape == () and g.dtype == emb.dtype
        numpy.testing.assert_allclose(g.array, e, rtol=1e-10, atol=1e-12)


# Computed once with Chainer 7.8.1 (numpy.random.RandomState(0): randn embeddings, then
# randint(0, dim + 2) labels); Chainer itself only accepts batch == dim or batch == 1.
@pytest.mark.parametrize('shape, args, dtype, expected', [
    ((3, 3, 4, 5), (0.5, 1.5, 1, 1.0, 1.0, 0.001), numpy.float32,
     (4.030235290527344, 2.6975412368774414, 0.0015694712055847049)),
    ((3, 3, 4, 5), (0.3, 2.0, 2, 0.5, 2.0, 0.1), numpy.float64,
     (0.8516778018471944, 16.33982315058075, 0.06356228494004938)),
    ((1, 4, 3, 3), (0.2, 1.0, 2, 1.0, 1.0, 0.01), numpy.float32,
     (0.5534813404083252, 0.11359279602766037, 0.01704155094921589)),
])
def test_matches_chainer(shape, args, dtype, expected):
    rng = numpy.random.RandomState(0)
    emb = rng.randn(*shape).astype(dtype)
    labels = rng.randint(0, shape[1] + 2, (shape[0],) + shape[2:]).astype(numpy.int32)
    delta_v, delta_d, norm, alpha, beta, gamma = args
    got = F.discriminative_margin_based_clustering_loss(
        emb, labels, delta_v, delta_d, shape[1], norm, alpha, beta, gamma)
    tol = 1e-6 if dtype == numpy.float32 else 1e-12
    for g, e in zip(got, expected):
        assert g.dtype == dtype
        numpy.testing.assert_allclose(g.array, e, rtol=tol)


@pytest.mark.parametrize('norm', [1, 2])
@pytest.mark.parametrize('term', [0, 1, 2])
def test_backward(norm, term):
    emb, labels = _data(2, 3, seed=4)
    labels[0, 0, :3] = [1, 2, 3]  # every cluster present in image 0; some absent in 1
    labels[1] = numpy.where(labels[1] == 3, 0, labels[1])

    def f(e):
        return F.discriminative_margin_based_clustering_loss(
            e, labels, 0.3, 1.0, 3, norm, 1.0, 1.0, 0.5)[term]
    gradient_check.check_backward(f, emb, None, eps=1e-6, atol=1e-6, rtol=1e-5)


def test_l2_gradient_is_finite_where_distances_are_zero():
    # Chainer's sqrt gives NaN here (distance 0 for pixels outside a cluster).
    emb, labels = _data(2, 2, seed=1)
    labels[:] = 1
    e = minichainer.Variable(emb)
    losses = F.discriminative_margin_based_clustering_loss(e, labels, 0.1, 1.0, 2, norm=2)
    F.sum(F.stack(list(losses))).backward()
    assert numpy.isfinite(e.grad).all() and numpy.abs(e.grad).sum() > 0


def test_class_and_defaults():
    loss = _module.DiscriminativeMarginBasedClusteringLoss()
    assert (loss.delta_v, loss.delta_d, loss.max_embedding_dim, loss.alpha, loss.beta,
            loss.gamma) == (0.5, 1.5, 10, 1.0, 1.0, 0.001)
    emb, labels = _data(2, 10, seed=2, dtype=numpy.float32)
    got = loss(emb, labels)
    expected = F.discriminative_margin_based_clustering_loss(emb, labels, 0.5, 1.5, 10)
    for g, e in zip(got, expected):
        numpy.testing.assert_array_equal(g.array, e.array)
        assert g.dtype == numpy.float32


def test_single_cluster_has_zero_distance_term():
    emb, labels = _data(2, 1, seed=3)
    l_var, l_dist, l_reg = F.discriminative_margin_based_clustering_loss(
        emb, labels, 0.1, 1.0, 1)
    assert isinstance(l_dist, minichainer.Variable) and float(l_dist.array) == 0.0
    assert float(l_var.array) > 0


def test_errors():
    emb, labels = _data(2, 3)
    with pytest.raises(ValueError, match='norm can only be 1 or 2, got 3'):
        F.discriminative_margin_based_clustering_loss(emb, labels, 0.5, 1.5, 3, norm=3)
    with pytest.raises(ValueError, match='max_embedding_dim must be positive, got 0'):
        _module.DiscriminativeMarginBasedClusteringLoss(max_embedding_dim=0)
    with pytest.raises(ValueError, match='max_embedding_dim=4'):
        F.discriminative_margin_based_clustering_loss(emb, labels, 0.5, 1.5, 4)
    with pytest.raises(ValueError, match='labels must have shape'):
        F.discriminative_margin_based_clustering_loss(emb, labels[:, :2], 0.5, 1.5, 3)
    with pytest.raises(ValueError, match='floating point'):
        F.discriminative_margin_based_clustering_loss(
            emb.astype(numpy.int32), labels, 0.5, 1.5, 3)
