"""Module-level helpers of multiprocess_parallel_updater (Chainer 7 names)."""
import numpy
import pytest

import minichainer
from minichainer import links as L
from minichainer.training.updaters import multiprocess_parallel_updater as mpu


@pytest.mark.parametrize('name', ['gather_grads', 'gather_params'])
def test_gather_raises_runtime_error_on_cpu(name):
    with pytest.raises(RuntimeError, match='GPU'):
        getattr(mpu, name)(L.Linear(2, 3))


@pytest.mark.parametrize('name', ['scatter_grads', 'scatter_params'])
def test_scatter_raises_runtime_error_on_cpu(name):
    with pytest.raises(RuntimeError, match='GPU'):
        getattr(mpu, name)(L.Linear(2, 3), numpy.zeros(9, 'f'))


def test_size_num_grads_counts_non_empty_params():
    link = minichainer.Chain()
    with link.init_scope():
        link.a = L.Linear(2, 3)          # W: 6, b: 3
        link.b = L.Linear(1, 4)          # W: 4, b: 4
    assert mpu.size_num_grads(link) == (17, 4)
