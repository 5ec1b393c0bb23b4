"""Fast gradient path shared by the functions' `backward` methods.

When no double backprop is requested (`config.enable_backprop` is False while
`backward` runs), a gradient needs no graph: it is computed with plain NumPy
in one fused pass and wrapped in a graph-less Variable, instead of being built
from several differentiable function applications.  With double backprop the
differentiable path is used.
"""
import functools

import numpy as _numpy

from minichainer import configuration as _configuration
from minichainer import variable as _variable

_ndarray = _numpy.ndarray
_host_scalars = (_numpy.generic, float, int)
_new_variable = _variable.new_variable

needs_graph = functools.partial(_configuration.get_value, 'enable_backprop')
needs_graph.__doc__ = 'True when the gradient being computed must itself be differentiable.'


def as_grad(array):
    """Wrap a gradient array into a Variable that is not part of any graph.

    NumPy scalars (what arithmetic on 0-d NumPy arrays returns) become 0-d arrays; a
    device (CuPy) array is wrapped as it is.
    """
    if type(array) is not _ndarray and isinstance(array, _host_scalars):
        array = _numpy.asarray(array)
    return _new_variable(array)
