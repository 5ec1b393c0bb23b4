"""A `sys.meta_path` finder that makes `chainer` and `chainer.*` resolve to minichainer.

`chainer.X.Y` is the very module object `minichainer.X.Y` (one object per name, so
`isinstance` checks, module globals and monkeypatching work across both names);
`chainerx` is a stub whose `is_available()` is False; `cupy` imports only where CuPy can
really be used (installed and a GPU answers);
`chainermn` maps to `minichainer.distributed` once that exists.
"""
import importlib
import importlib.abc
import importlib.machinery
import sys
import types

# Chainer APIs that minichainer deliberately does not provide, with the reason shown.
_UNSUPPORTED = {
    'chainer.links.caffe': 'Caffe model import/export is not supported',
    'chainer.exporters': 'Caffe export is not supported (for ONNX, onnx_chainer is '
                         'minichainer.onnx)',
    'chainer.graph_optimizations': 'static graph optimizations are not supported',
    'chainer.backends.intel64.ideep': 'iDeep is not supported',
}


def _missing(name, reason=None):
    message = '{} is not provided by minichainer'.format(name)
    if reason:
        message += ': ' + reason
    else:
        message += (' (no module minichainer{}); see docs/porting.md for what is supported'
                    .format(name[len('chainer'):]))
    return ModuleNotFoundError(message, name=name)


class _AliasLoader(importlib.abc.Loader):
    """Loader that hands back an already imported module object instead of executing code."""

    def __init__(self, module, alias_name):
        self._module = module
        self._alias_name = alias_name
        self._original_spec = getattr(module, '__spec__', None)

    def create_module(self, spec):
        return self._module

    def exec_module(self, module):
        # The import system has just set ``module.__spec__`` to the alias spec; keep the
        # module's own (``minichainer.X``) spec so that reload, pickling by reference and
        # tools that read ``__spec__`` see one consistent module.
        if self._original_spec is not None:
            module.__spec__ = self._original_spec
        _guard_shadowed_attribute(self._alias_name)
        _alias_loaded_submodules(module, self._alias_name)


class _ShadowGuardModule(types.ModuleType):
    """Module class for a package whose attribute shadows its submodule of that name
    (``chainer.utils.experimental`` is a function, ``chainer.utils.experimental`` also a
    module).  Importing the submodule under its ``chainer.*`` alias makes the import
    system set the package attribute to the module; this keeps the attribute."""

    def __setattr__(self, name, value):
        if isinstance(value, types.ModuleType) and name in self.__dict__:
            current = self.__dict__[name]
            if not isinstance(current, types.ModuleType) and \
                    getattr(current, '__module__', None) == value.__name__:
                return
        super().__setattr__(name, value)


def _guard_shadowed_attribute(alias):
    # Called just before the import system binds the aliased submodule on its parent.
    parent_name, _, child = alias.rpartition('.')
    parent = sys.modules.get(parent_name)
    if parent is None or type(parent) is not types.ModuleType:
        return
    current = parent.__dict__.get(child)
    if current is not None and not isinstance(current, types.ModuleType):
        parent.__class__ = _ShadowGuardModule


def _alias_loaded_submodules(package, alias):
    # The submodules a package has already imported and bound (minichainer.serializers
    # imports .npz and .hdf5) are in sys.modules under their alias too, as they are in
    # Chainer: `from chainer.serializers import hdf5` then finds the attribute and imports
    # nothing, and a test that deletes sys.modules['chainer.serializers.hdf5'] finds it.
    if not hasattr(package, '__path__'):
        return
    prefix = package.__name__ + '.'
    for child, value in list(vars(package).items()):
        if isinstance(value, types.ModuleType) and value.__name__ == prefix + child:
            sys.modules.setdefault(alias + '.' + child, value)


def _spec_for(name, module):
    is_package = hasattr(module, '__path__')
    spec = importlib.machinery.ModuleSpec(name, _AliasLoader(module, name),
                                          is_package=is_package)
    if is_package:
        spec.submodule_search_locations = list(module.__path__)
    return spec


def _cupy_usable():
    # `import cupy` works under the runner only where CuPy can really be used (installed
    # and a GPU answers); while minichainer itself resolves CuPy, the import goes through.
    from minichainer.backends import cuda
    state = cuda.cupy_state
    if state.resolving:
        return True
    if not state.resolved:
        cuda.resolve_cupy()
    return state.ndarray is not None


def _cupy_why():
    from minichainer.backends import cuda
    return cuda.why_unavailable()


class ChainerAliasFinder(importlib.abc.MetaPathFinder):
    """Resolve `chainer`, `chainer.*`, `chainerx`, `cupy` and `chainermn` imports."""

    def __init__(self, chainerx_factory):
        self._chainerx_factory = chainerx_factory

    def find_spec(self, fullname, path=None, target=None):
        top = fullname.partition('.')[0]
        if top == 'chainer':
            return _spec_for(fullname, self._resolve_chainer(fullname))
        if top == 'chainerx':
            if fullname != 'chainerx':
                raise ModuleNotFoundError(
                    '{} is not available: minichainer has no ChainerX backend '
                    '(chainerx.is_available() is False)'.format(fullname), name=fullname)
            return _spec_for(fullname, self._chainerx_factory())
        if top == 'cupy' or top == 'cupyx':
            if _cupy_usable():
                return None  # real CuPy, found by the ordinary finders
            raise ModuleNotFoundError(
                'No module named {!r}: CuPy cannot be used here ({}), so under the minichainer '
                "runner programs take their CPU paths ('@numpy' device)".format(
                    fullname, _cupy_why()), name=fullname)
        if top == 'onnx_chainer':
            # onnx_chainer (and onnx_chainer.X) is minichainer.onnx (and .X)
            target_name = 'minichainer.onnx' + fullname[len('onnx_chainer'):]
            return _spec_for(fullname, importlib.import_module(target_name))
        if top == 'chainermn':
            target_name = 'minichainer.distributed' + fullname[len('chainermn'):]
            try:
                module = importlib.import_module(target_name)
            except ModuleNotFoundError as e:
                if e.name is not None and target_name.startswith(e.name):
                    raise ModuleNotFoundError(
                        '{} is not available: minichainer does not provide ChainerMN '
                        '(distributed training) yet (no module {})'.format(
                            fullname, target_name), name=fullname) from None
                raise
            return _spec_for(fullname, module)
        return None

    @staticmethod
    def _resolve_chainer(fullname):
        target = 'minichainer' + fullname[len('chainer'):]
        try:
            return importlib.import_module(target)
        except ModuleNotFoundError as e:
            missing = e.name
            if missing is None or not (target == missing or target.startswith(missing + '.')):
                raise  # a dependency of an existing module is missing: keep the real error
        # ``chainer.cuda`` and the like are attributes (module aliases) in Chainer.
        parent_name, _, child = target.rpartition('.')
        parent = sys.modules.get(parent_name)
        try:
            value = getattr(parent, child, None) if parent is not None else None
        except ImportError:  # a lazily exposed module that does not exist
            value = None
        if isinstance(value, types.ModuleType):
            sys.modules.setdefault(target, value)
            return value
        if value is not None:  # e.g. ``import chainer.Variable``: exists, but not a module
            raise ModuleNotFoundError(
                "No module named {!r} ({} is a {}, not a module)".format(
                    fullname, fullname, type(value).__name__), name=fullname)
        reason = None
        for prefix, why in _UNSUPPORTED.items():
            if fullname == prefix or fullname.startswith(prefix + '.'):
                reason = why
        raise _missing(fullname, reason)


def find_installed():
    """Return the installed `ChainerAliasFinder`, or None."""
    for finder in sys.meta_path:
        if isinstance(finder, ChainerAliasFinder):
            return finder
    return None
