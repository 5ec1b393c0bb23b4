# Startup hook for the Python subprocesses of a program run by ``minichainer-run`` in
# legacy-NumPy mode (the runner puts this folder on their PYTHONPATH): the mode is turned on
# as soon as numpy is imported, before any of the program's own code uses a removed name,
# and the import hook that compiles users' code for ``float(a)`` of one-element arrays is
# put on ``sys.meta_path``. Then the ``sitecustomize`` this one shadows (if any) runs as it
# would have.
import importlib.machinery
import importlib.util
import os
import sys


_PACKAGE = 'minichainer._compat'


def _load(name):
    # Loaded from its file, without importing the minichainer package (which would import
    # numpy and all of minichainer at every interpreter start-up); registered under its
    # package name so a later ``from minichainer._compat import numpy_legacy`` is this one.
    fullname = _PACKAGE + '.' + name
    if fullname in sys.modules:
        return sys.modules[fullname]
    path = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                        name + '.py')
    spec = importlib.util.spec_from_file_location(fullname, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[fullname] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[fullname]
        raise
    return module


def _turn_on_legacy_numpy():
    module = _load('numpy_legacy')
    if module.requested_by_environment():
        module.install_when_numpy_imported()
        _load('python_legacy').install()
        conversions = _load('legacy_conversions')
        conversions.install(user_dirs=conversions.user_dirs_from_environment())


def _run_shadowed_sitecustomize():
    here = os.path.dirname(os.path.abspath(__file__))
    others = [p for p in sys.path if os.path.abspath(p or os.curdir) != here]
    spec = importlib.machinery.PathFinder.find_spec('sitecustomize', others)
    if spec is None or spec.loader is None:
        return
    module = importlib.util.module_from_spec(spec)
    sys.modules['sitecustomize'] = module
    spec.loader.exec_module(module)


try:
    _turn_on_legacy_numpy()
finally:
    _run_shadowed_sitecustomize()
