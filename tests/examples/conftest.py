"""Fixtures running an example script in a subprocess, the way a user does."""
import json
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXAMPLES = os.path.join(ROOT, 'examples')


def _run_example(relpath, *args, cwd=None, env=None, timeout=120):
    """Run ``python examples/<relpath> ARGS`` with minichainer importable; return stdout.

    OpenBLAS is limited to one thread: on a busy 2-core machine its thread pool makes
    tiny matrix products orders of magnitude slower.
    """
    extra = env or {}
    env = dict(os.environ)
    env.update(extra)
    env['PYTHONPATH'] = ROOT + os.pathsep + env.get('PYTHONPATH', '')
    env['MPLBACKEND'] = 'Agg'
    env['OPENBLAS_NUM_THREADS'] = '1'
    proc = subprocess.run(
        [sys.executable, os.path.join(EXAMPLES, relpath)] + [str(a) for a in args],
        capture_output=True, text=True, env=env, cwd=cwd, timeout=timeout)
    assert proc.returncode == 0, 'exit {}\nstdout:\n{}\nstderr:\n{}'.format(
        proc.returncode, proc.stdout, proc.stderr)
    return proc.stdout


def _read_log(path):
    with open(path) as f:
        return json.load(f)


@pytest.fixture
def run_example():
    """``run_example('mnist/train_mnist.py', *args, cwd=None)`` → the script's stdout."""
    return _run_example


@pytest.fixture
def read_log():
    """``read_log(path)`` → the parsed JSON of a LogReport file."""
    return _read_log
