"""The scale and shift parameters (`gamma`, `beta`) shared by the normalization links."""
from minichainer import initializers
from minichainer import variable


def affine_parameter(initial, default, dtype):
    """An uninitialized Parameter for `gamma` or `beta`: `initial` (None means
    `default`) is its initializer; with `dtype` (not None) the initializer is given
    that dtype."""
    if initial is None:
        initial = default
    if dtype is None:
        return variable.Parameter(initial)
    initializer = initializers.get_initializer(initial)
    initializer.dtype = dtype
    return variable.Parameter(initializer)


def setup_affine(link, initial_gamma, initial_beta, eps, size, dtype=None):
    """Register `gamma` (default 1) and `beta` (default 0) on `link` and set its
    `eps`; with `size` (not None) both are initialized to that shape."""
    with link.init_scope():
        link.gamma = affine_parameter(initial_gamma, 1, dtype)
        link.beta = affine_parameter(initial_beta, 0, dtype)
        link.eps = eps
    if size is not None:
        initialize_affine(link, size)


def initialize_affine(link, size):
    """Initialize `link.gamma` and `link.beta` to shape `size` (the links'
    `_initialize_params`)."""
    link.gamma.initialize(size)
    link.beta.initialize(size)


def affine_or_constants(link, shape, dtype):
    """`(gamma, beta)` of `link` for a forward pass: one that the link does not use
    (None) is replaced by ones (gamma) or zeros (beta) of `shape` and `dtype`."""
    gamma = link.gamma
    if gamma is None:
        gamma = link.xp.ones(shape, dtype=dtype)
    beta = link.beta
    if beta is None:
        beta = link.xp.zeros(shape, dtype=dtype)
    return gamma, beta
