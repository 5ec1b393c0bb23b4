"""Conditions for the `:skipif:` option of doctests (`chainer.testing.doctest_helper`)."""
import os

from minichainer.testing import helper

_gpu_limit = int(os.getenv('CHAINER_TEST_GPU_LIMIT', '-1'))


def skipif(condition):
    """Return `condition`, except on Read the Docs builds (never skip there, so the
    example stays visible in the rendered documentation)."""
    if os.environ.get('READTHEDOCS') == 'True':
        return False
    return condition


def skipif_requires_satisfied(*requirements):
    """Skip when all `requirements` (e.g. `'theano'`) are installed."""
    if not helper._requirements_met(requirements):
        return False
    return skipif(True)


def skipif_not_enough_cuda_devices(device_count):
    """Skip when `CHAINER_TEST_GPU_LIMIT` allows fewer than `device_count` GPUs."""
    return skipif(0 <= _gpu_limit < device_count)
