"""Parameter set-up shared by the connection links (``Linear``, the convolutions)."""
from minichainer import initializers
from minichainer import variable


def init_weight_and_bias(link, initialW, in_size, nobias, initial_bias, bias_size):
    """Register ``link.W`` and ``link.b`` inside ``link.init_scope()``.

    ``W`` is initialized at once through ``link._initialize_params(in_size)`` when
    ``in_size`` is known (else on the first forward); ``b`` has ``bias_size``
    elements (``initial_bias`` defaults to 0), or is None when ``nobias``.
    """
    with link.init_scope():
        link.W = variable.Parameter(initializers._get_initializer(initialW))
        if in_size is not None:
            link._initialize_params(in_size)
        if nobias:
            link.b = None
        else:
            if initial_bias is None:
                initial_bias = 0
            link.b = variable.Parameter(
                initializers._get_initializer(initial_bias), bias_size)


def check_groups(owner, name, channels, groups):
    """Raise ValueError unless ``channels`` (the argument ``name``) divides by ``groups``."""
    if channels % groups != 0:
        raise ValueError('{}: {} ({}) must be divisible by groups ({})'.format(
            owner, name, channels, groups))


def bias_from_params(owner, b, out_channels):
    """``b`` given to ``from_params`` as an array (None stays None).

    Raises:
        ValueError: ``b`` does not have ``out_channels`` elements.
    """
    if b is not None:
        b = variable.as_array(b)
        if b.size != out_channels:
            raise ValueError('{}: b must have {} elements (out_channels), got {}'.format(
                owner, out_channels, b.size))
    return b
