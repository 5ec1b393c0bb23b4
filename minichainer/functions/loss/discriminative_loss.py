"""Discriminative margin-based clustering loss (De Brabandere et al., 2017,
https://arxiv.org/abs/1708.02551) for instance segmentation by pixel embeddings.

Cluster `k` (`k = 1 .. max_embedding_dim`) is the set of pixels whose label is
`k`; other labels (`0` = background, or larger values) belong to no cluster. With
`mu[k, b]` the mean embedding of cluster `k` in image `b` (zero when empty),
`K = max_embedding_dim` and `B` the batch size, the three terms are Chainer's:

* variance (pull): `sum_k [sum_{b,p} relu(|mu[k,b] - e[b,:,p]| - delta_v)^2] / n_k / K`
  where the inner sum runs over all pixels, a pixel outside cluster `k` having
  distance 0, and `n_k = max(pixels of cluster k in the batch, 1)`;
* distance (push): `sum_{k<l} sum_b relu(2 delta_d - |mu[k,b] - mu[l,b]|)^2 /
  max(K (K - 1) / 2 * B, 1)` (absent clusters take part with a zero mean);
* regularization: `sum_k |mu[k, :, :]| / (K * B)` (the norm over batch and channels).

`|.|` is the L1 or L2 norm over the embedding channels. Chainer materialises a
`(K, B, K, H, W)` broadcast; here the cluster means and the per-pixel gathers are
matrix products with a one-hot mask, so memory stays `O(B K H W)`.
"""
import numpy

from minichainer import backend
from minichainer import variable
from minichainer.functions.activation.relu import relu
from minichainer.functions.array.reshape import reshape
from minichainer.functions.array.where import where
from minichainer.functions.math.basic_math import absolute
from minichainer.functions.math.matmul import matmul
from minichainer.functions.math.sqrt import sqrt
from minichainer.functions.math.sum import sum as _sum


def _l1_norm(x, axis=None):
    return _sum(absolute(x), axis=axis)


def _l2_norm(x, axis=None):
    """L2 norm whose gradient is 0 (not NaN, as with a plain sqrt) where it is 0."""
    squared = _sum(x * x, axis=axis)
    xp = backend.get_array_module(squared)
    nonzero = squared.array > 0
    if xp is numpy and nonzero.all():   # (on a GPU the test would read the flag back)
        return sqrt(squared)
    one = xp.ones_like(squared.array)
    root = sqrt(where(nonzero, squared, one))
    return where(nonzero, root, xp.zeros_like(one))


class DiscriminativeMarginBasedClusteringLoss(object):
    """Callable computing the discriminative margin-based clustering loss.

    `loss(embeddings, labels)` returns `(alpha * l_var, beta * l_dist,
    gamma * l_reg)` (see the module documentation for the terms).

    Args:
        delta_v (float): distance to its cluster mean below which a pixel is not pulled.
        delta_d (float): half the distance between two cluster means beyond which they
            are not pushed apart.
        max_embedding_dim (int): number of embedding channels, which is also the
            number of clusters (labels `1 .. max_embedding_dim`).
        norm (int): 1 (L1) or 2 (L2) distance.
        alpha, beta, gamma (float): weights of the variance, distance and
            regularization terms.

    Raises:
        ValueError: for a non-positive `max_embedding_dim` or a `norm` other than
            1 or 2.
    """

    def __init__(self, delta_v=0.5, delta_d=1.5, max_embedding_dim=10, norm=1,
                 alpha=1.0, beta=1.0, gamma=0.001):
        self.delta_v = delta_v
        self.delta_d = delta_d
        self.alpha = alpha
        self.beta = beta
        self.gamma = gamma
        self.max_embedding_dim = max_embedding_dim
        if self.max_embedding_dim <= 0:
            raise ValueError(
                'DiscriminativeMarginBasedClusteringLoss: max_embedding_dim must be '
                'positive, got {}'.format(max_embedding_dim))
        if norm == 1:
            self.norm = _l1_norm
        elif norm == 2:
            self.norm = _l2_norm
        else:
            raise ValueError(
                'DiscriminativeMarginBasedClusteringLoss: norm can only be 1 or 2, '
                'got {!r}'.format(norm))

    def __call__(self, embeddings, labels):
        """Compute the three loss terms.

        Args:
            embeddings (Variable or ndarray): `(B, max_embedding_dim,
                H, W)` floating-point pixel embeddings.
            labels (ndarray): `(B, H, W)` instance labels.

        Returns:
            tuple of Variable: `(alpha * l_var, beta * l_dist,
            gamma * l_reg)`, 0-dim, of the embeddings' dtype.

        Raises:
            ValueError: for shapes that do not fit.
        """
        n_clusters = self.max_embedding_dim
        labels = variable.as_array(labels)
        e_shape = embeddings.shape
        if len(e_shape) != 4 or e_shape[1] != n_clusters:
            raise ValueError(
                'discriminative_margin_based_clustering_loss: embeddings must have shape '
                '(batch, max_embedding_dim={}, height, width), got {}'.format(
                    n_clusters, tuple(e_shape)))
        if labels.shape != (e_shape[0],) + tuple(e_shape[2:]):
            raise ValueError(
                'discriminative_margin_based_clustering_loss: labels must have shape '
                '(batch, height, width) = {}, got {}'.format(
                    (e_shape[0],) + tuple(e_shape[2:]), labels.shape))
        if embeddings.dtype.kind != 'f':
            raise ValueError(
                'discriminative_margin_based_clustering_loss: embeddings must be '
                'floating point, got {}'.format(embeddings.dtype))
        xp = backend.get_array_module(labels)
        dtype = embeddings.dtype
        batch, n_pixels = e_shape[0], e_shape[2] * e_shape[3]

        # One-hot membership (B, K, P) and the pixel counts per image and cluster.
        ids = xp.arange(1, n_clusters + 1).reshape(1, n_clusters, 1)
        member = (labels.reshape(batch, 1, n_pixels) == ids).astype(dtype)
        counts = member.sum(axis=2)  # (B, K)
        emb = reshape(embeddings, (batch, n_clusters, n_pixels))  # (B, D, P)
        means = matmul(emb, member, transb=True) / xp.maximum(counts, 1)[:, None, :]
        # means: (B, D, K)

        # Regularization: norm over (batch, channels) of each cluster's means.
        l_reg = _sum(self.norm(means, (0, 1))) / (n_clusters * batch)

        # Variance: distance of each clustered pixel to its own cluster mean.
        own_mean = matmul(means, member)  # (B, D, P), zero off clusters
        in_cluster = member.sum(axis=1)[:, None, :]  # (B, 1, P)
        dist = self.norm((own_mean - emb) * in_cluster, 1)  # (B, P)
        pull = relu(dist - self.delta_v) ** 2
        per_cluster = _sum(matmul(member, reshape(pull, (batch, n_pixels, 1))),
                           axis=(0, 2))  # (K,)
        total = counts.sum(axis=0)
        if self.delta_v < 0:
            # Pixels outside cluster k have distance 0 and still cost relu(-delta_v)^2.
            per_cluster = per_cluster + (batch * n_pixels - total) * self.delta_v ** 2
        l_var = _sum(per_cluster / xp.maximum(total, 1)) / n_clusters

        # Distance: every pair of clusters, in every image.
        n_pairs = n_clusters * (n_clusters - 1) // 2
        if n_pairs:
            first, second = xp.triu_indices(n_clusters, 1)
            pairs = xp.zeros((n_clusters, n_pairs), dtype=dtype)
            columns = xp.arange(n_pairs)
            pairs[first, columns] = 1
            pairs[second, columns] = -1
            gap = self.norm(matmul(means, xp.broadcast_to(pairs, (batch,) + pairs.shape)),
                            1)  # (B, pairs)
            l_dist = _sum(relu(2 * self.delta_d - gap) ** 2) / (n_pairs * batch)
        else:
            l_dist = variable.Variable(xp.zeros((), dtype=dtype))
        return self.alpha * l_var, self.beta * l_dist, self.gamma * l_reg


def discriminative_margin_based_clustering_loss(
        embeddings, labels, delta_v, delta_d, max_embedding_dim, norm=1, alpha=1.0,
        beta=1.0, gamma=0.001):
    """Discriminative margin-based clustering loss for instance segmentation.

    Pulls each pixel's embedding towards the mean of its instance (variance term),
    pushes the means of different instances apart (distance term) and keeps the means
    small (regularization term). See
    `DiscriminativeMarginBasedClusteringLoss` for the arguments.

    Returns:
        tuple of Variable: `(alpha * l_var, beta * l_dist,
        gamma * l_reg)`.
    """
    loss = DiscriminativeMarginBasedClusteringLoss(
        delta_v, delta_d, max_embedding_dim, norm, alpha, beta, gamma)
    return loss(embeddings, labels)
