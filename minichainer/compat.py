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
False; `cupy` raises ImportError (so programs take their CPU paths); `chainermn` maps
to `minichainer.distributed` when that exists. Importing a Chainer API that minichainer
lacks raises `ModuleNotFoundError` naming it.

Legacy-NumPy mode (on by default in the runner, `install(numpy_legacy=True)` from Python)
gives old code back the names NumPy 1.23-2.4 removed (`np.float`, `np.asscalar`,
`np.product` ...), each warning once with its replacement; see
`minichainer._compat.numpy_legacy` and docs/porting.md.
"""
import functools
import os
import runpy
import sys

import minichainer
from minichainer._compat import chainerx_stub
from minichainer._compat import importer
from minichainer._compat import numpy_legacy as numpy_legacy_mode

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
            `NumpyLegacyWarning` naming its replacement at first use. Off by default
            here, on by default in `minichainer-run`. Once on, it stays on until
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
            if name.partition('.')[0] in ('chainer', 'chainerx') and module is not stub \
                    and not getattr(module, '__name__', '').startswith('minichainer'):
                del sys.modules[name]
        sys.meta_path.insert(0, importer.ChainerAliasFinder(_chainerx_module))
    sys.modules['chainer'] = minichainer
    sys.modules['chainerx'] = _chainerx_module()
    if _SHIM_DIR not in sys.path:
        sys.path.insert(0, _SHIM_DIR)
    if numpy_legacy:
        numpy_legacy_mode.install()


def uninstall():
    """Undo [`install`][minichainer.compat.install]: remove the import hook, the `chainer*` aliases
    and the legacy-NumPy names."""
    numpy_legacy_mode.uninstall()
    sys.meta_path[:] = [f for f in sys.meta_path
                        if not isinstance(f, importer.ChainerAliasFinder)]
    for name in list(sys.modules):
        top = name.partition('.')[0]
        if top in ('chainer', 'chainerx', 'chainermn'):
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
    script_dir = os.path.dirname(os.path.abspath(script)) if os.path.isfile(script) \
        else os.path.abspath(script)
    sys.argv[:] = [script] + [str(a) for a in args]
    sys.path.insert(0, script_dir)
    try:
        return runpy.run_path(script, run_name='__main__')
    finally:
        sys.argv[:] = old_argv
        sys.path[:] = old_path


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
    try:
        return runpy.run_module(module, run_name='__main__', alter_sys=True)
    finally:
        sys.argv[:] = old_argv
        sys.path[:] = old_path


def _export_to_child_processes(numpy_legacy=False):
    # Python processes started by the program (pytest-xdist workers, subprocess calls)
    # inherit the environment but not the import hook: put the shim that installs it, and
    # minichainer itself, on their PYTHONPATH (and, in legacy-NumPy mode, the start-up
    # hook that turns the mode on as soon as they import numpy).
    package_parent = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    entries = [_SHIM_DIR, package_parent]
    if numpy_legacy:
        entries.insert(0, _STARTUP_DIR)
        os.environ[numpy_legacy_mode.ENV_VAR] = '1'
    else:
        os.environ.pop(numpy_legacy_mode.ENV_VAR, None)
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
          'replacement; --no-numpy-legacy runs with NumPy as it is.\n')


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
    else:
        script, args = argv[0], argv[1:]
        if not os.path.exists(script):
            sys.stderr.write(
                'minichainer-run: cannot open file {!r}: no such file\n'.format(script))
            return 2
        target = functools.partial(run, script, args, numpy_legacy=legacy)
    _export_to_child_processes(numpy_legacy=legacy)
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
