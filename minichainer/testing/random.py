"""Deterministic random numbers in tests (`chainer.testing.fix_random`)."""
import atexit
import functools
import os
import random
import types

import numpy

from minichainer.testing import _bundle


class _RandomState:
    """The random states saved by the outermost setup, and how deep setups are nested."""

    python_state = None
    numpy_state = None
    nest_count = 0


_saved = _RandomState()


def _numpy_do_setup(deterministic=True):
    _saved.python_state = random.getstate()
    _saved.numpy_state = numpy.random.get_state()
    if deterministic:
        numpy.random.seed(100)
    else:
        numpy.random.seed()


def _numpy_do_teardown():
    random.setstate(_saved.python_state)
    numpy.random.set_state(_saved.numpy_state)
    _saved.python_state = None
    _saved.numpy_state = None


def do_setup(deterministic=True):
    _numpy_do_setup(deterministic)


def do_teardown():
    _numpy_do_teardown()


@atexit.register
def _check_teardown():
    assert _saved.nest_count == 0, \
        '_setup_random() and _teardown_random() must be called in pairs.'


def _setup_random():
    """Seed numpy's global RNG with 100 (outermost call only); the state is saved."""
    if _saved.nest_count == 0:
        nondeterministic = bool(int(os.environ.get(
            'CHAINER_TEST_RANDOM_NONDETERMINISTIC', '0')))
        do_setup(not nondeterministic)
    _saved.nest_count += 1


def _teardown_random():
    """Restore the random states saved by the outermost `_setup_random`."""
    if _saved.nest_count <= 0:
        raise RuntimeError('_teardown_random: _setup_random has not been called')
    _saved.nest_count -= 1
    if _saved.nest_count == 0:
        do_teardown()


def generate_seed():
    """Draw a seed from the fixed RNG (only inside a `fix_random` test)."""
    if _saved.nest_count <= 0:
        raise RuntimeError('generate_seed: random is not set up (use fix_random)')
    return numpy.random.randint(0xffffffff)


def _fix_random(setup_method_name, teardown_method_name):
    def decorator(impl):
        if isinstance(impl, types.FunctionType) and impl.__name__.startswith('test_'):
            @functools.wraps(impl)
            def test_func(*args, **kwargs):
                _setup_random()
                try:
                    return impl(*args, **kwargs)
                finally:
                    _teardown_random()
            return test_func

        if isinstance(impl, _bundle._ParameterizedTestCaseBundle):
            cases = impl
        elif isinstance(impl, type):
            cases = _bundle._ParameterizedTestCaseBundle([_bundle._TestCaseTuple(impl, None, None)])
        else:
            raise TypeError('fix_random: must decorate a test class or a test_* function, got '
                            '{!r}'.format(impl))

        for klass, _, _ in cases.cases:
            prev_setup = getattr(klass, setup_method_name, None)
            prev_teardown = getattr(klass, teardown_method_name, None)

            def make(prev_setup=prev_setup, prev_teardown=prev_teardown):
                def new_setup(self, *args, **kwargs):
                    _setup_random()
                    if prev_setup is not None:
                        prev_setup(self, *args, **kwargs)

                def new_teardown(self, *args, **kwargs):
                    try:
                        if prev_teardown is not None:
                            prev_teardown(self, *args, **kwargs)
                    finally:
                        _teardown_random()
                if prev_setup is not None:
                    new_setup = functools.wraps(prev_setup)(new_setup)
                if prev_teardown is not None:
                    new_teardown = functools.wraps(prev_teardown)(new_teardown)
                return new_setup, new_teardown

            setup, teardown = make()
            setattr(klass, setup_method_name, setup)
            setattr(klass, teardown_method_name, teardown)
        if isinstance(impl, type):
            return impl
        return cases
    return decorator


def fix_random(*, setup_method='setUp', teardown_method='tearDown'):
    """Decorator fixing numpy's (and Python's) random state in a test.

    On a test class, `setup_method` seeds numpy with 100 and `teardown_method` restores
    the previous states; on a `test_*` function, the same happens around the call. Do not
    apply it inside `condition.retry`/`repeat` (each trial would draw the same numbers).
    Deliberate difference: applied to a plain class, Chainer returns a bundle of one
    generated case; minichainer returns the (modified) class itself.
    """
    return _fix_random(setup_method, teardown_method)
