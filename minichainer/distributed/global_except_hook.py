"""Abort the whole MPI job when one process dies of an uncaught exception.

Without it, the other processes of a data-parallel job wait forever in their next
collective call. The hook prints the traceback as usual, then calls `MPI_Abort` on
`COMM_WORLD`, which makes `mpiexec` terminate every rank with a non-zero status.

Deliberate difference from ChainerMN: the hook is installed by default when
`minichainer.distributed` is imported (ChainerMN needed
`CHAINERMN_FORCE_ABORT_ON_EXCEPTION`). Set `MINICHAINER_MPI_ABORT_ON_EXCEPTION=0` to
keep the plain Python behaviour, or call `remove_hook`. It only acts when MPI is
initialized and the job has more than one process.
"""
import os
import sys
import time
import warnings

from minichainer.distributed import _mpi

_FORWARD_GRACE_SECONDS = 0.5


class _HookState:
    """The `sys.excepthook` the hook replaced, and whether `add_hook()` was called."""

    orig_except_hook = None
    installed_explicitly = False


_state = _HookState()


def _global_except_hook(exctype, value, traceback):
    """Print the exception like Python does, then `MPI_Abort` the job."""
    try:
        hook = _state.orig_except_hook or sys.__excepthook__
        hook(exctype, value, traceback)
    finally:
        MPI = _mpi.mpi_if_loaded()
        if MPI is not None and MPI.COMM_WORLD.Get_size() > 1:
            rank = MPI.COMM_WORLD.Get_rank()
            try:
                sys.stdout.flush()
            except Exception:
                pass
            sys.stderr.write(
                '\n******************************************\n'
                'minichainer.distributed:\n'
                '   Uncaught exception on rank {}.\n'
                '   Calling MPI_Abort() to shut down the whole MPI job...\n'
                '******************************************\n\n'.format(rank))
            sys.stderr.flush()
            # MPI_Abort makes mpiexec kill every rank at once, and the output this
            # rank has written but mpiexec's proxy has not yet forwarded is lost with
            # it (seen under load: the traceback cut mid-line). A moment's wait on
            # this error path lets the traceback and the banner reach the terminal.
            time.sleep(_FORWARD_GRACE_SECONDS)
            try:
                MPI.COMM_WORLD.Abort(1)
            except Exception:
                sys.stderr.write('Failed to abort MPI; other processes may hang.\n')
                sys.stderr.flush()
                raise


def _enabled_by_env():
    var = os.environ.get('MINICHAINER_MPI_ABORT_ON_EXCEPTION', '1').strip().lower()
    return var not in ('0', 'false', 'no', 'off')


def add_hook_if_enabled():
    """Install the hook unless disabled by `MINICHAINER_MPI_ABORT_ON_EXCEPTION=0`."""
    if _enabled_by_env() and sys.excepthook is not _global_except_hook:
        _install()


def _install():
    if sys.excepthook is _global_except_hook:
        return
    _state.orig_except_hook = sys.excepthook
    sys.excepthook = _global_except_hook


def add_hook():
    """Install the hook (ChainerMN's opt-in call; it is installed by default here).

    Calling it twice warns, as in ChainerMN.
    """
    if _state.installed_explicitly:
        warnings.warn('minichainer.distributed.global_except_hook.add_hook() seems to be '
                      'called multiple times. Ignoring.', stacklevel=2)
        return
    _state.installed_explicitly = True
    _install()


def remove_hook():
    """Restore the previous `sys.excepthook` (minichainer addition)."""
    if sys.excepthook is _global_except_hook:
        sys.excepthook = _state.orig_except_hook or sys.__excepthook__
    _state.orig_except_hook = None
    _state.installed_explicitly = False


_add_hook_if_enabled = add_hook_if_enabled  # Chainer's name
