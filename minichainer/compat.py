"""Run unmodified Chainer programs on minichainer.

From a shell:

    python -m minichainer.compat train_mnist.py --epoch 1 --device -1
    minichainer-run train_mnist.py --epoch 1

From Python (notebooks, test suites):

    import minichainer.compat
    minichainer.compat.install()
    import chainer            # is minichainer
    import chainer.functions as F

After [`install`][minichainer.compat.install], `chainer` and every `chainer.X.Y` are the very module
objects `minichainer` / `minichainer.X.Y` (`sys.modules['chainer.functions'] is
sys.modules['minichainer.functions']`); `chainerx` is a stub whose `is_available()` is
False; `cupy` raises ImportError unless CuPy can really be used (installed and a GPU
answers), so programs take their CPU paths; `chainermn` maps
to `minichainer.distributed` when that exists. Importing a Chainer API that minichainer
lacks raises `ModuleNotFoundError` naming it.

Legacy-NumPy mode (on by default in the runner, `install(numpy_legacy=True)` from Python)
gives old code back the names NumPy 1.23-2.4 removed (`np.float`, `np.asscalar`,
`np.product` ...), each warning once with its replacement, and rewrites users' code as it
is imported so that `float(a)` / `int(a)` / `complex(a)` of a one-element array with
`ndim > 0` converts its element as on NumPy 1 and, on NumPy 2, its arithmetic operators
promote NumPy scalars as NumPy 1 did; see `minichainer._compat.numpy_legacy`,
`minichainer._compat.legacy_conversions`, `minichainer._compat.legacy_promotion` and
docs/porting.md.
"""
import builtins
import functools
import importlib.util
import os
import runpy
import sys
import types

import minichainer
from minichainer._compat import chainerx_stub
from minichainer._compat import importer
from minichainer._compat import legacy_conversions
from minichainer._compat import numpy_legacy as numpy_legacy_mode
from minichainer._compat import python_legacy

_SHIM_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), '_compat', '_shim')
# ``sitecustomize`` that turns the legacy-NumPy mode on in the runner's Python subprocesses.
_STARTUP_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), '_compat', '_startup')


def _chainerx_module():
    return chainerx_stub.get_module()


def install(numpy_legacy=False):
    """Make `import chainer` (and `chainer.*`, `chainerx`) resolve to minichainer.

    Args:
        numpy_legacy (bool): also turn on the legacy-NumPy mode: the names NumPy 1.23-2.4
            removed that old code uses (`np.float`, `np.int`, `np.asscalar`,
            `np.product`, `np.NaN` ...) are restored in `numpy`, each showing one
            `NumpyLegacyWarning` naming its replacement at first use; and modules imported
            from then on that are users' code (they import Chainer or a Chainer library,
            or their distribution requires chainer) are compiled so that `float(a)`,
            `int(a)`, `complex(a)` of a one-element array with `ndim > 0` convert its
            element as NumPy 1 did and, on NumPy 2, their arithmetic operators promote
            as on NumPy 1; the `collections` ABC aliases Python 3.10 removed
            (`collections.Iterable`, ...) are served too. Off by default here, on by default in
            `minichainer-run`. Once on, it stays on until
            [`uninstall`][minichainer.compat.uninstall].

    Idempotent. Modules already imported under the `chainer` name (e.g. a real Chainer)
    are removed from `sys.modules` first, so later imports see minichainer.
    Also puts a small import shim on `sys.path` so that spawned worker processes, which
    inherit `sys.path` but not the import hook, resolve `chainer` the same way.
    """
    if importer.find_installed() is None:
        stub = _chainerx_module()
        for name in list(sys.modules):
            module = sys.modules[name]
            if name.partition('.')[0] in ('chainer', 'chainerx', 'onnx_chainer') \
                    and module is not stub \
                    and not getattr(module, '__name__', '').startswith('minichainer'):
                del sys.modules[name]
        sys.meta_path.insert(0, importer.ChainerAliasFinder(_chainerx_module))
    sys.modules['chainer'] = minichainer
    sys.modules['chainerx'] = _chainerx_module()
    if _SHIM_DIR not in sys.path:
        sys.path.insert(0, _SHIM_DIR)
    if numpy_legacy:
        numpy_legacy_mode.install()
        python_legacy.install()
        legacy_conversions.install()


def uninstall():
    """Undo [`install`][minichainer.compat.install]: remove the import hooks, the `chainer*`
    aliases and the legacy-NumPy names (modules already compiled by the legacy mode keep
    their code)."""
    numpy_legacy_mode.uninstall()
    python_legacy.uninstall()
    legacy_conversions.uninstall()
    sys.meta_path[:] = [f for f in sys.meta_path
                        if not isinstance(f, importer.ChainerAliasFinder)]
    for name in list(sys.modules):
        top = name.partition('.')[0]
        if top in ('chainer', 'chainerx', 'chainermn', 'onnx_chainer'):
            del sys.modules[name]
    while _SHIM_DIR in sys.path:
        sys.path.remove(_SHIM_DIR)


def is_installed():
    """True when [`install`][minichainer.compat.install] is in effect."""
    return importer.find_installed() is not None


def run(script, args=(), numpy_legacy=False):
    """Run `script` as `python SCRIPT ARGS...` would, with `chainer` → minichainer.

    `sys.argv` becomes `[script, *args]`, the script runs as `__main__` and its folder
    is first on `sys.path` (both restored afterwards). Exceptions, including
    `SystemExit`, propagate. `numpy_legacy` is passed to [`install`][minichainer.compat.install].

    Raises:
        FileNotFoundError: `script` does not exist.
    """
    script = os.fspath(script)
    if not os.path.exists(script):
        raise FileNotFoundError('minichainer.compat: script not found: {}'.format(script))
    install(numpy_legacy=numpy_legacy)
    old_argv = sys.argv[:]
    old_path = sys.path[:]
    script_dir = _script_dir(script)
    code = None
    if numpy_legacy:
        legacy_conversions.install(user_dirs=(script_dir,))
        code = _transformed_script(script)
    sys.argv[:] = [script] + [str(a) for a in args]
    sys.path.insert(0, script_dir)
    try:
        if code is None:
            return runpy.run_path(script, run_name='__main__')
        return _run_main_code(code, script)
    finally:
        sys.argv[:] = old_argv
        sys.path[:] = old_path


def _script_dir(script):
    return os.path.dirname(os.path.abspath(script)) if os.path.isfile(script) \
        else os.path.abspath(script)


def _transformed_script(script):
    # The script's code through the legacy-NumPy transform, or None where runpy is to run
    # it as it is (a folder or zip file with __main__.py, a .pyc, no valid Python source).
    if not os.path.isfile(script) or script.endswith(('.pyc', '.pyz', '.zip')):
        return None
    with open(script, 'rb') as f:
        source = f.read()
    try:
        return legacy_conversions.compile_source(source, script)
    except (SyntaxError, ValueError):
        return None   # runpy reports it as Python would


def _run_main_code(code, script):
    # What ``runpy.run_path`` does with a script's code: a fresh ``__main__`` module for the
    # duration of the run; returns a copy of its globals.
    main = types.ModuleType('__main__')
    main.__dict__.update(__file__=script, __cached__=None, __doc__=None, __loader__=None,
                         __package__='', __spec__=None, __builtins__=builtins)
    saved = sys.modules.get('__main__')
    sys.modules['__main__'] = main
    try:
        exec(code, main.__dict__)
        return main.__dict__.copy()
    finally:
        if saved is None:
            sys.modules.pop('__main__', None)
        else:
            sys.modules['__main__'] = saved


def run_module(module, args=(), numpy_legacy=False):
    """Run `module` as `python -m MODULE ARGS...` would, with `chainer` → minichainer.

    For example `run_module('pytest', ['tests/'])` runs a Chainer test suite unmodified.
    `sys.argv` is restored afterwards; exceptions, including `SystemExit`, propagate.
    `numpy_legacy` is passed to [`install`][minichainer.compat.install].
    """
    install(numpy_legacy=numpy_legacy)
    old_argv = sys.argv[:]
    old_path = sys.path[:]
    sys.argv[:] = [module] + [str(a) for a in args]
    sys.path.insert(0, os.getcwd())  # as ``python -m`` does
    if numpy_legacy:
        legacy_conversions.install(user_dirs=_module_dirs(module))
    try:
        return runpy.run_module(module, run_name='__main__', alter_sys=True)
    finally:
        sys.argv[:] = old_argv
        sys.path[:] = old_path


def _module_dirs(module):
    # The sys.path folder ``module`` is found in, unless it is an installed package (then
    # the legacy-NumPy mode's user code is what imports Chainer, see legacy_conversions).
    try:
        spec = importlib.util.find_spec(module.partition('.')[0])
    except (ImportError, ValueError):
        return ()
    if spec is None or not spec.origin or not os.path.isfile(spec.origin):
        return ()
    folder = os.path.dirname(os.path.abspath(spec.origin))
    if spec.submodule_search_locations is not None:
        folder = os.path.dirname(folder)
    if os.path.basename(folder) in ('site-packages', 'dist-packages') or \
            folder == os.path.dirname(os.path.abspath(os.__file__)):
        return ()
    return (folder,)


def _export_to_child_processes(numpy_legacy=False, user_dirs=()):
    # Python processes started by the program (pytest-xdist workers, subprocess calls)
    # inherit the environment but not the import hook: put the shim that installs it, and
    # minichainer itself, on their PYTHONPATH (and, in legacy-NumPy mode, the start-up
    # hook that turns the mode on as soon as they import numpy).
    package_parent = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    entries = [_SHIM_DIR, package_parent]
    if numpy_legacy:
        entries.insert(0, _STARTUP_DIR)
        os.environ[numpy_legacy_mode.ENV_VAR] = '1'
        os.environ[legacy_conversions.USER_DIRS_ENV_VAR] = os.pathsep.join(user_dirs)
    else:
        os.environ.pop(numpy_legacy_mode.ENV_VAR, None)
        os.environ.pop(legacy_conversions.USER_DIRS_ENV_VAR, None)
    current = os.environ.get('PYTHONPATH', '')
    existing = current.split(os.pathsep) if current else []
    os.environ['PYTHONPATH'] = os.pathsep.join(
        entries + [e for e in existing if e not in entries])


_USAGE = ('usage: python -m minichainer.compat [--no-numpy-legacy] SCRIPT [ARGS...]\n'
          '       python -m minichainer.compat [--no-numpy-legacy] -m MODULE [ARGS...]\n'
          '       minichainer-run [--no-numpy-legacy] SCRIPT [ARGS...]\n\n'
          'Run an unmodified Chainer program (or module, e.g. -m pytest) with chainer\n'
          'resolving to minichainer. Python subprocesses it starts resolve chainer the\n'
          'same way.\n\n'
          'The names NumPy 1.23-2.4 removed that old code uses (np.float, np.int,\n'
          'np.asscalar, np.product, np.NaN, ...) are restored, each warning once with its\n'
          'replacement, and float()/int()/complex() of a one-element array with ndim > 0\n'
          'in the program\'s own code and in Chainer libraries converts its element as on\n'
          'NumPy 1; --no-numpy-legacy runs with NumPy as it is.\n')


def main(argv=None):
    """Console entry point (`minichainer-run`); returns the process exit code."""
    if argv is None:
        argv = sys.argv[1:]
    if not argv or argv[0] in ('-h', '--help'):
        stream = sys.stdout if argv else sys.stderr
        stream.write(_USAGE)
        return 0 if argv else 2
    legacy = True
    while argv and argv[0] in ('--no-numpy-legacy', '--numpy-legacy'):
        legacy = argv[0] == '--numpy-legacy'
        argv = argv[1:]
    if not argv:
        sys.stderr.write(_USAGE)
        return 2
    if argv[0] == '-m':
        if len(argv) < 2:
            sys.stderr.write('minichainer-run: argument -m expects a module name\n')
            return 2
        module, args = argv[1], argv[2:]
        target = functools.partial(run_module, module, args, numpy_legacy=legacy)
        user_dirs = _module_dirs(module) if legacy else ()
    else:
        script, args = argv[0], argv[1:]
        if not os.path.exists(script):
            sys.stderr.write(
                'minichainer-run: cannot open file {!r}: no such file\n'.format(script))
            return 2
        target = functools.partial(run, script, args, numpy_legacy=legacy)
        user_dirs = (_script_dir(script),)
    _export_to_child_processes(numpy_legacy=legacy, user_dirs=user_dirs)
    try:
        target()
    except SystemExit as e:
        code = e.code
        if code is None:
            return 0
        if isinstance(code, int):
            return code
        sys.stderr.write('{}\n'.format(code))
        return 1
    except KeyboardInterrupt:
        return 130
    except BaseException:
        # Only on this error path: ``traceback`` (with linecache, textwrap) is not imported
        # at the runner's start-up, which stays as lean as a plain ``python script.py``.
        import traceback
        exc_type, exc, tb = sys.exc_info()
        # drop the runner's own frames (run, runpy) from the report
        runner_files = (__file__, runpy.__file__, '<frozen runpy>')
        while tb is not None and tb.tb_frame.f_code.co_filename in runner_files:
            tb = tb.tb_next
        traceback.print_exception(exc_type, exc, tb)
        return 1
    return 0


if __name__ == '__main__':
    # ``python -m minichainer.compat``: delegate to the importable module so that there is
    # one copy of the runner's state.
    from minichainer.compat import main as _main
    sys.exit(_main())
