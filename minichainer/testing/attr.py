"""Test attributes (`chainer.testing.attr`): pytest marks for hardware-specific tests.

As in Chainer, `gpu`, `multi_gpu(n)`, `cudnn`, `ideep`, `chainerx` and `slow`
put the pytest marks of the same names on a test. Tests marked `gpu`/`multi_gpu(n)` run
where CuPy is available with at least that many GPUs (and `CHAINER_TEST_GPU_LIMIT`, when
set, allows them) and are skipped otherwise, the decision being taken when the decorator
is applied; `cudnn` (CuPy 14 has no cuDNN), `ideep` and `chainerx` tests are always
skipped (under pytest and plain unittest alike); `slow` tests run.
"""
import os
import unittest

try:
    import pytest
    _error = None
except ImportError as e:  # pragma: no cover - pytest is a test dependency
    pytest = None
    _error = e

_gpu_limit = int(os.getenv('CHAINER_TEST_GPU_LIMIT', '-1'))


def is_available():
    """True when pytest (which provides the marks) can be imported."""
    return _error is None


def check_available():
    """Raise `RuntimeError` when pytest is not available."""
    if _error is not None:
        raise RuntimeError('{} is not available.\n\nReason: {}: {}'.format(
            __name__, type(_error).__name__, _error))


def get_error():
    return _error


def _mark(name, target, args=(), kwargs=None):
    if pytest is None:
        return target
    return getattr(pytest.mark, name)(*args, **(kwargs or {}))(target)


def _skip(reason, target):
    target = unittest.skip(reason)(target)
    if pytest is not None:
        target = pytest.mark.skip(reason=reason)(target)
    return target


def _marking_skip(name, reason):
    def decorator(*args, **kwargs):
        if len(args) == 1 and not kwargs and callable(args[0]):
            return _skip(reason, _mark(name, args[0]))
        # called with mark arguments: return a decorator
        return lambda target: _skip(reason, _mark(name, target, args, kwargs))
    decorator.__name__ = name
    decorator.__doc__ = 'Mark a test as needing {} (skipped: {}).'.format(name, reason)
    return decorator


chainerx = _marking_skip('chainerx', 'ChainerX is not available in minichainer')
cudnn = _marking_skip('cudnn', 'cuDNN is not available in minichainer')
ideep = _marking_skip('ideep', 'iDeep is not available in minichainer')


def slow(*args, **kwargs):
    """Mark a test as slow (`pytest -m 'not slow'` deselects it); it still runs."""
    if len(args) == 1 and not kwargs and callable(args[0]):
        return _mark('slow', args[0])
    return lambda target: _mark('slow', target, args, kwargs)


def _gpu_count():
    # resolves CuPy (imports it where installed): only test modules use these marks
    from minichainer.backends import cuda
    if not cuda.available:
        return 0, cuda.why_unavailable()
    count = cuda.device_count()
    return count, 'this machine has {} GPU(s)'.format(count)


def multi_gpu(gpu_num):
    """Decorator: the test needs `gpu_num` GPUs (skipped where fewer can be used)."""
    def deco(f):
        if 0 <= _gpu_limit < gpu_num:
            return _skip('{} GPU(s) required; CHAINER_TEST_GPU_LIMIT is {}'.format(
                gpu_num, _gpu_limit), _mark('gpu', f))
        count, why = _gpu_count()
        if count < gpu_num:
            return _skip('{} GPU(s) required ({})'.format(gpu_num, why), _mark('gpu', f))
        return _mark('gpu', f)
    return deco


def gpu(f):
    """Decorator: the test needs a GPU (skipped where CuPy cannot be used)."""
    return multi_gpu(1)(f)
