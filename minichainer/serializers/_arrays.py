"""A check shared by the deserializers of this package."""
import numpy


def array_for(owner, where, data, value):
    """`data` (a stored entry) as an ndarray to copy into the ndarray `value`.

    Raises:
        ValueError: the shapes differ; the message names `owner` (`'load_npz'`) and
            `where` (the entry, as the caller words it).
    """
    data = numpy.asarray(data)
    if data.shape != value.shape:
        raise ValueError(
            '{}: shape mismatch for {}: the file has shape {} but the destination array '
            'has shape {}'.format(owner, where, data.shape, value.shape))
    return data
