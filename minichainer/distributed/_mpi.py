"""Lazy access to mpi4py: nothing here imports it until a communicator is needed."""
import sys

_INSTALL_HINT = (
    'minichainer.distributed needs mpi4py and an MPI library; install them with '
    '`pip install minichainer[mpi]` (mpi4py + the MPICH wheel) or install mpi4py '
    'against your system MPI')


def get_mpi():
    """Return the `mpi4py.MPI` module, importing (and so initializing MPI) on first use.

    Raises:
        ImportError: mpi4py (or the MPI library it links) is missing; the message names
            the `mpi` extra to install.
    """
    mod = sys.modules.get('mpi4py.MPI')
    if mod is not None:
        return mod
    try:
        from mpi4py import MPI
    except ImportError as e:
        raise ImportError('{} ({}: {})'.format(
            _INSTALL_HINT, type(e).__name__, e)) from e
    return MPI


def mpi_if_loaded():
    """`mpi4py.MPI` if it was imported already and MPI is running, else None."""
    mod = sys.modules.get('mpi4py.MPI')
    if mod is None:
        return None
    try:
        if mod.Is_initialized() and not mod.Is_finalized():
            return mod
    except Exception:
        return None
    return None
