"""Launch MPI programs from pytest: find ``mpiexec``, run with a timeout, skip without MPI."""
import importlib.util
import os
import shutil
import signal
import subprocess
import sys
import time

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HERE = os.path.dirname(os.path.abspath(__file__))


def find_mpiexec():
    """``mpiexec`` next to this Python (venv / wheel install) or on PATH, or None."""
    local = os.path.join(os.path.dirname(sys.executable), 'mpiexec')
    if os.path.isfile(local) and os.access(local, os.X_OK):
        return local
    return shutil.which('mpiexec')


def require_mpi():
    """Skip the calling test unless mpi4py and mpiexec are installed."""
    if importlib.util.find_spec('mpi4py') is None:
        pytest.skip('mpi4py is not installed (pip install minichainer[mpi])')
    exe = find_mpiexec()
    if exe is None:
        pytest.skip('mpiexec not found (pip install minichainer[mpi])')
    return exe


def _is_open_mpi(exe):
    try:
        out = subprocess.run([exe, '--version'], capture_output=True, text=True,
                             timeout=20)
    except (OSError, subprocess.SubprocessError):
        return False
    text = out.stdout + out.stderr
    return 'Open MPI' in text or 'OpenRTE' in text


def mpi_env():
    env = dict(os.environ)
    for var in ('OMP_NUM_THREADS', 'OPENBLAS_NUM_THREADS', 'MKL_NUM_THREADS'):
        env[var] = '1'
    env['PYTHONPATH'] = ROOT + os.pathsep + env.get('PYTHONPATH', '')
    env.pop('MINICHAINER_MPI_ABORT_ON_EXCEPTION', None)
    return env


def run_mpi(args, n=2, timeout=60, cwd=None):
    """Run ``mpiexec -n N python ARGS``; return ``(returncode, stdout, stderr, seconds)``.

    On timeout the whole process group is killed and the test fails.
    """
    exe = require_mpi()
    cmd = [exe]
    if _is_open_mpi(exe):
        cmd += ['--oversubscribe']
        if hasattr(os, 'geteuid') and os.geteuid() == 0:
            cmd += ['--allow-run-as-root']
    cmd += ['-n', str(n), sys.executable] + list(args)
    start = time.monotonic()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=mpi_env(), cwd=cwd or ROOT,
                            start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        pytest.fail('MPI job timed out after {} s: {}\nstdout:\n{}\nstderr:\n{}'.format(
            timeout, ' '.join(cmd), out[-3000:], err[-3000:]))
    return proc.returncode, out, err, time.monotonic() - start
