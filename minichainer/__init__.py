"""minichainer: a Chainer-compatible deep-learning framework on NumPy 2.

`import minichainer as chainer` gives Chainer 7's API.  Sub-packages (`functions`,
`links`, `training` ...) are imported on first use so that `import minichainer` is fast.
"""
import importlib
import os
import sys

import numpy

from minichainer.configuration import config, global_config, using_config  # noqa: F401
from minichainer import _operations


def _load_operations():
    # The package wires its layers: the operations the core's objects offer (Variable's
    # backward, its method forms of functions, memory layouts) are registered by the
    # modules above the core at their import (minichainer/_operations.py); the first
    # operation needed before they were imported imports them.  minichainer.functions
    # brings the backward engine with it.
    importlib.import_module('minichainer.functions')
    importlib.import_module('minichainer.memory_layouts')


_operations.set_loader(_load_operations)

# ``chainer.__version__`` is what Chainer programs read, so it names the Chainer release
# whose API minichainer provides; minichainer's own release is ``minichainer_version``.
__version__ = '7.8.1'
chainer_version = __version__
minichainer_version = '0.1.0'
# Set True to silence the FutureWarning of APIs marked experimental (utils.experimental).
disable_experimental_feature_warning = False


class _Mixed16:
    """The `mixed16` dtype mode: float16 activations with float32 master parameters."""

    dtype = numpy.dtype(numpy.float16)

    def __repr__(self):
        return "dtype('mixed16')"

    __str__ = __repr__


mixed16 = _Mixed16()


def _parse_dtype(name):
    if name == 'mixed16':
        return mixed16
    dtype = numpy.dtype(name)
    if dtype not in (numpy.float16, numpy.float32, numpy.float64):
        raise TypeError('CHAINER_DTYPE must be float16, float32, float64 or mixed16, '
                        'got {!r}'.format(name))
    return dtype


global_config.debug = bool(int(os.environ.get('CHAINER_DEBUG', '0')))
global_config.cudnn_deterministic = False
global_config.warn_nondeterministic = False
global_config.enable_backprop = True
global_config.keep_graph_on_report = bool(
    int(os.environ.get('CHAINER_KEEP_GRAPH_ON_REPORT', '0')))
global_config.train = True
global_config.type_check = bool(int(os.environ.get('CHAINER_TYPE_CHECK', '1')))
global_config.use_cudnn = os.environ.get('CHAINER_USE_CUDNN', 'auto')
global_config.use_cudnn_tensor_core = 'auto'
global_config.autotune = False
global_config.schedule_func = None
global_config.use_ideep = os.environ.get('CHAINER_USE_IDEEP', 'never')
global_config.lazy_grad_sum = bool(int(os.environ.get('CHAINER_LAZY_GRAD_SUM', '0')))
global_config.use_static_graph = True
global_config.dtype = _parse_dtype(os.environ.get('CHAINER_DTYPE', 'float32'))
global_config.in_recomputing = False
global_config._will_recompute = False
global_config.compute_mode = None
# minichainer addition: F.sign, F.argmax and F.argmin, which Chainer computes outside the
# graph, link a node that passes no gradient (graph readers such as minichainer.onnx set it)
global_config.record_non_differentiable = False


def get_dtype(dtype=None, map_mixed16=None):
    """Return `dtype` or, when None, the configured default dtype (`config.dtype`).

    `mixed16` maps to `map_mixed16` if given, else float16.
    """
    if dtype is None:
        dtype = config.dtype
    if dtype is mixed16:
        return numpy.dtype(map_mixed16) if map_mixed16 is not None else numpy.dtype('float16')
    return numpy.dtype(dtype)


def is_debug():
    """True when debug mode (`config.debug`) is on."""
    return bool(config.__getattr__('debug'))


def set_debug(debug):
    """Turn debug mode on or off for the current thread."""
    config.debug = debug


class DebugMode:
    """Context manager that sets debug mode inside a `with` block."""

    def __init__(self, debug):
        self._using = using_config('debug', debug)

    def __enter__(self):
        self._using.__enter__()

    def __exit__(self, *args):
        self._using.__exit__(*args)


def get_compute_mode():
    """The configured compute mode (`config.compute_mode`; e.g. `'cudnn_fast'`)."""
    return config.compute_mode


class _FallbackType:
    """Type of `Fallback`, which `forward_chainerx` returns to fall back."""

    def __repr__(self):
        return 'Fallback'


Fallback = _FallbackType()


_LAZY_MODULES = frozenset([
    'backends', 'dataset', 'datasets', 'distributed', 'function_hooks', 'functions',
    'initializers', 'iterators', 'link_hooks', 'links', 'optimizer_hooks', 'optimizers',
    'reporter', 'serializers', 'testing', 'training', 'utils', 'variable', 'function_node',
    'function', 'link', 'optimizer', 'initializer', 'serializer', 'sequential', 'backend',
    'gradient_check', 'compat', 'device_resident', 'function_hook', 'link_hook', 'warnings',
    'computational_graph', 'distributions', 'distribution', 'types', 'memory_layouts',
    'graph_optimizations', '_backprop_utils', '_runtime_info', '_backprop',
])

_LAZY_ATTRS = {
    # autodiff core
    'Variable': ('variable', 'Variable'),
    'Parameter': ('variable', 'Parameter'),
    'VariableNode': ('variable', 'VariableNode'),
    'as_variable': ('variable', 'as_variable'),
    'as_array': ('variable', 'as_array'),
    'FunctionNode': ('function_node', 'FunctionNode'),
    'grad': ('function_node', 'grad'),
    'backward': ('_backprop', 'backward'),
    'Function': ('function', 'Function'),
    'FunctionAdapter': ('function', 'FunctionAdapter'),
    'no_backprop_mode': ('function', 'no_backprop_mode'),
    'force_backprop_mode': ('function', 'force_backprop_mode'),
    'FunctionHook': ('function_hook', 'FunctionHook'),
    'get_function_hooks': ('function_hook', 'get_function_hooks'),
    'print_runtime_info': ('_runtime_info', 'print_runtime_info'),
    '_get_link_hooks': ('link_hook', '_get_link_hooks'),
    'LinkHook': ('link_hook', 'LinkHook'),
    # models and training
    'DeviceResident': ('device_resident', 'DeviceResident'),
    'Link': ('link', 'Link'),
    'Chain': ('link', 'Chain'),
    'ChainList': ('link', 'ChainList'),
    'Sequential': ('sequential', 'Sequential'),
    'Initializer': ('initializer', 'Initializer'),
    'Optimizer': ('optimizer', 'Optimizer'),
    'GradientMethod': ('optimizer', 'GradientMethod'),
    'UpdateRule': ('optimizer', 'UpdateRule'),
    'Hyperparameter': ('optimizer', 'Hyperparameter'),
    'Reporter': ('reporter', 'Reporter'),
    'report': ('reporter', 'report'),
    'report_scope': ('reporter', 'report_scope'),
    'get_current_reporter': ('reporter', 'get_current_reporter'),
    'Summary': ('reporter', 'Summary'),
    'DictSummary': ('reporter', 'DictSummary'),
    'AbstractSerializer': ('serializer', 'AbstractSerializer'),
    'Serializer': ('serializer', 'Serializer'),
    'Deserializer': ('serializer', 'Deserializer'),
    'get_device': ('backend', 'get_device'),
    'get_array_types': ('backend', 'get_array_types'),
    'get_cpu_array_types': ('backend', 'get_cpu_array_types'),
    'is_arrays_compatible': ('backend', 'is_arrays_compatible'),
    'should_use_cudnn': ('backends.cuda', 'should_use_cudnn'),
    'should_use_cudnn_tensor_core': ('backends.cuda', 'should_use_cudnn_tensor_core'),
    'using_device': ('backend', 'using_device'),
    'cuda': ('backends.cuda', None),
    'basic_math': ('functions.math.basic_math', None),  # chainer.basic_math
    'static_graph': ('graph_optimizations.static_graph', 'static_graph'),
    'static_code': ('graph_optimizations.static_graph_utilities', 'static_code'),
    # probability distributions
    'Distribution': ('distribution', 'Distribution'),
    'kl_divergence': ('distribution', 'kl_divergence'),
    'register_kl': ('distribution', 'register_kl'),
    'cross_entropy': ('distribution', 'cross_entropy'),
}


def __getattr__(name):
    if name in _LAZY_MODULES:
        module = importlib.import_module('minichainer.' + name)
        globals()[name] = module
        return module
    target = _LAZY_ATTRS.get(name)
    if target is not None:
        module = importlib.import_module('minichainer.' + target[0])
        value = module if target[1] is None else getattr(module, target[1])
        globals()[name] = value
        return value
    raise AttributeError('module \'minichainer\' has no attribute {!r}'.format(name))


def __dir__():
    return sorted(set(globals()) | _LAZY_MODULES | set(_LAZY_ATTRS))
