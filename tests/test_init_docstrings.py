"""Classes document their constructor arguments in the class docstring, never in
`__init__`'s: Chainer's API reference (and its own test suite, which runs over
minichainer through the compat runner) requires it, since documentation tools show
the class docstring as the constructor's."""
import importlib
import inspect
import pkgutil

import minichainer


def _modules():
    for info in pkgutil.walk_packages(minichainer.__path__, 'minichainer.'):
        try:
            yield importlib.import_module(info.name)
        except ImportError:   # an optional dependency that is not installed
            continue


def test_no_init_docstrings():
    offenders = []
    for module in _modules():
        for name, cls in vars(module).items():
            if not inspect.isclass(cls) or cls.__module__ != module.__name__:
                continue
            init = vars(cls).get('__init__')
            if inspect.isfunction(init) and init.__doc__:
                offenders.append('{}.{}'.format(module.__name__, name))
    assert offenders == []
