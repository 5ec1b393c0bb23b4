"""`chainer.utils.imgproc`: image helpers."""
from minichainer import backend


def oversample(images, crop_dims):
    """Ten crops per image: the four corners and the center, then the same five
    flipped horizontally.

    Args:
        images: Sequence of `(channels, height, width)` arrays of one shape (or one
            `(n, channels, height, width)` array).
        crop_dims (tuple of ints): `(crop_height, crop_width)`.

    Returns:
        An array of shape `(10 * len(images), channels, crop_height, crop_width)`
        and the dtype of the images.
    """
    xp = backend.get_array_module(images[0])
    if not (getattr(images, 'ndim', None) == 4):
        images = xp.stack(list(images))
    n, channels, height, width = images.shape
    crop_h, crop_w = crop_dims
    if not (0 < crop_h <= height and 0 < crop_w <= width):
        raise ValueError('oversample: crop_dims must be positive and fit in the images '
                         '({}x{}), got {}'.format(height, width, tuple(crop_dims)))
    bottom, right = height - crop_h, width - crop_w
    center = (int(height / 2.0 - crop_h / 2.0), int(width / 2.0 - crop_w / 2.0))
    corners = ((0, 0), (0, right), (bottom, 0), (bottom, right), center)
    crops = xp.stack([images[:, :, top:top + crop_h, left:left + crop_w]
                      for top, left in corners], axis=1)
    crops = xp.concatenate((crops, crops[..., ::-1]), axis=1)
    return crops.reshape(n * 10, channels, crop_h, crop_w)
