"""Fast gradient path shared by the functions' ``backward`` methods.

When no double backprop is requested (``config.enable_backprop`` is False while
``backward`` runs), a gradient needs no graph: it is computed with plain NumPy
in one fused pass and wrapped in a graph-less Variable, instead of being built
from several differentiable function applications.  With double backprop the
differentiable path is used.
"""
import numpy as _numpy

from minichainer.configuration import config as _config
from minichainer.variable import Variable as _Variable

_ndarray = _numpy.ndarray
_new_variable = _Variable.__new__
_local_config = _config._local
_global_config = _config._global


def needs_graph():
    """True when the gradient being computed must itself be differentiable."""
    local = _local_config.__dict__
    if 'enable_backprop' in local:
        return local['enable_backprop']
    return _global_config.enable_backprop


def as_grad(array):
    """Wrap a gradient array into a Variable that is not part of any graph.

    NumPy scalars (what arithmetic on 0-d arrays returns) become 0-d arrays.
    """
    if type(array) is not _ndarray:
        array = _numpy.asarray(array)
    v = _new_variable(_Variable)
    v._data = array
    v._requires_grad = False
    v._vnode = None
    v._name = None
    v._grad_var = None
    return v
