"""Let a family package's re-exported functions double as their same-named modules.

Chainer's family ``__init__`` files are empty, so ``from chainer.functions.activation import
lstm`` yields the *module* and user code writes ``lstm.lstm(...)``, ``softplus.Softplus`` or
``log_softmax._log_softmax``.  minichainer's family packages re-export the functions (so
``minichainer.functions`` can collect them), which shadows those submodules.  To keep both
spellings working, each shadowing function gets the non-dunder globals of its module as
attributes: ``relu(x)`` still calls the function and ``relu.ReLU`` is the class.
"""
import sys
import types


def alias_modules(package_globals, names):
    """Copy each submodule's globals onto the package attribute of the same name.

    Args:
        package_globals (dict): ``globals()`` of the family package's ``__init__``.
        names (iterable of str): Names that are both a submodule and its main function.
    """
    prefix = package_globals['__name__'] + '.'
    for name in names:
        func = package_globals.get(name)
        module = sys.modules.get(prefix + name)
        if module is None or func is None or isinstance(func, types.ModuleType):
            continue
        for key, value in vars(module).items():
            if not key.startswith('__'):
                setattr(func, key, value)
