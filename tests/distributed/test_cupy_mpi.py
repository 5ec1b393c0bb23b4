"""The MPI communicators on CuPy arrays (the CuPy test double) with 2 ranks: array
collectives and point-to-point, a model's gradients averaged through the host (shared
memory and Allreduce, one device-to-host copy per dtype), parameters broadcast, the
multi-node optimizer; host staging because this MPI is not CUDA-aware."""
import os

import pytest

from . import _launch

SCRIPT = os.path.join(_launch.HERE, '_cupy_scenarios.py')
SCENARIOS = ['arrays', 'mean_grad_shared_memory', 'mean_grad_allreduce', 'bcast_data',
             'multi_node_optimizer', 'functions', 'allreduce_persistent',
             'multi_node_batch_normalization', 'not_cuda_aware']


def test_mpi_collectives_on_cupy_double_arrays():
    if os.environ.get('MINICHAINER_TEST_REAL_CUPY') == '1':
        pytest.skip('runs on the CuPy double (counts its host copies)')
    rc, out, err, _ = _launch.run_mpi([SCRIPT] + SCENARIOS, timeout=120)
    done = [line.split(' ', 1)[1] for line in out.splitlines() if line.startswith('OK ')]
    assert rc == 0 and done == SCENARIOS, 'exit {}\nstdout:\n{}\nstderr:\n{}'.format(
        rc, out[-3000:], err[-5000:])
