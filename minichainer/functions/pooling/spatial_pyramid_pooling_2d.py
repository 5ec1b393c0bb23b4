"""Spatial pyramid pooling."""
from minichainer.functions.array.concat import concat
from minichainer.functions.array.reshape import reshape
from minichainer.functions.pooling.max_pooling_2d import max_pooling_2d


def spatial_pyramid_pooling_2d(x, pyramid_height, pooling=None):
    """Pool `x` (n, c, h, w) at `pyramid_height` levels into one fixed-length vector.

    Level `i` max-pools with window `ceil(h / 2**i) x ceil(w / 2**i)` (stride = window,
    padding `(2**i * k - size) // 2`, `cover_all=True`), giving `2**i x 2**i` bins;
    the flattened results of all levels are concatenated.

    Args:
        x (Variable or ndarray): (n, c, h, w) input.
        pyramid_height (int): number of pyramid levels.
        pooling (str): only `'max'` is supported.

    Returns:
        Variable: (n, c * sum_i 4**i, 1, 1) output.

    Raises:
        ValueError: if `pooling` is not `'max'`.
    """
    if pooling != 'max':
        raise ValueError('Unsupported pooling operation: {!r} (only \'max\')'.format(pooling))
    _, _, bottom_h, bottom_w = x.shape
    ys = []
    for level in range(pyramid_height):
        n_bins = 2 ** level
        ksize_h = -(-bottom_h // n_bins)
        ksize_w = -(-bottom_w // n_bins)
        pad = ((ksize_h * n_bins - bottom_h) // 2, (ksize_w * n_bins - bottom_w) // 2)
        y = max_pooling_2d(x, ksize=(ksize_h, ksize_w), stride=None, pad=pad,
                           cover_all=True)
        n, c, h, w = y.shape
        ys.append(reshape(y, (n, c * h * w, 1, 1)))
    return concat(ys)
