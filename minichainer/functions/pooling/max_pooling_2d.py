"""Two-dimensional max pooling (the N-D engine with two spatial axes)."""
from minichainer.functions.pooling import max_pooling_nd
from minichainer.functions.pooling import pooling_2d


class MaxPooling2D(max_pooling_nd.MaxPoolingForward, pooling_2d.Pooling2D):
    """Max pooling over a set of 2d planes; `indexes` holds the argmax in each window."""

    _func_name = 'max_pooling_2d'


MaxPooling2DGrad = max_pooling_nd.MaxPoolingNDGrad
MaxPooling2DWithIndexes = max_pooling_nd.MaxPoolingNDWithIndexes


def max_pooling_2d(x, ksize, stride=None, pad=0, cover_all=True, return_indices=False):
    """Spatial max pooling.

    Non-overlapping windows (`stride == ksize`, the default) and overlapping ones
    share one N-D implementation; the backward routes each output gradient to the
    first maximum of its window, as Chainer.

    Args:
        x (Variable or ndarray): (n, c, h, w) input.
        ksize (int or pair of ints): window size.
        stride (int or pair of ints or None): stride; `None` means `ksize`.
        pad (int or pair of ints): spatial padding (with -inf).
        cover_all (bool): make the windows cover every input pixel (may add one output
            row/column).
        return_indices (bool): also return the argmax indices within each window (an
            ndarray for
            [`upsampling_2d`][minichainer.functions.pooling.upsampling_2d.upsampling_2d]).

    Returns:
        Variable, or (Variable, ndarray) when `return_indices` is True.

    Raises:
        ValueError: a non-positive `ksize`/`stride`, a negative `pad` or a
            window larger than the padded input.
    """
    func = MaxPooling2D(ksize, stride, pad, cover_all, return_indices)
    out = func.apply((x,))[0]
    if return_indices:
        return out, func.indexes
    return out
