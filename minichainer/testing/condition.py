"""Repeat flaky tests (`chainer.testing.condition`)."""
import functools
import unittest


class QuietTestRunner:
    """Runs a suite and returns its result without printing."""

    def run(self, suite):
        result = unittest.TestResult()
        suite(result)
        return result


def repeat_with_success_at_least(times, min_success):
    """Decorator: run the test up to `times` times; pass once `min_success` runs pass.

    Each trial of a `unittest.TestCase` method runs on a fresh instance with its own
    `setUp`/`tearDown`; a skipped trial skips the test. Remaining trials are not run
    once the outcome is decided. Plain (non-unittest) test methods and functions are
    simply called again.

    Args:
        times (int): maximum number of trials.
        min_success (int): number of passing trials needed.
    """
    if not (isinstance(times, int) and isinstance(min_success, int)):
        raise TypeError('repeat_with_success_at_least: times and min_success must be ints, '
                        'got {!r} and {!r}'.format(times, min_success))
    # AssertionError, as Chainer's own tests expect
    if not 0 <= min_success <= times:
        raise AssertionError('repeat_with_success_at_least: need 0 <= min_success <= times, '
                             'got times={} min_success={}'.format(times, min_success))

    def decorator(f):
        @functools.wraps(f)
        def wrapper(*args, **kwargs):
            instance = args[0] if args else None
            if isinstance(instance, unittest.TestCase):
                return _run_unittest(f, instance, args, kwargs, times, min_success)
            return _run_plain(f, args, kwargs, times, min_success)
        return wrapper
    return decorator


def _run_unittest(f, instance, args, kwargs, times, min_success):
    successes = failures = 0
    failed_results = []

    def fail():
        msg = '\nFail: {0}, Success: {1}'.format(failures, successes)
        if failed_results:
            errors = failed_results[0].failures + failed_results[0].errors
            if errors:
                msg += '\n\nThe first error message:\n' + '\n'.join(e[1] for e in errors)
        instance.fail(msg)

    skipped = _pytest_skip_exception()

    def trial(ins):
        try:
            f(ins, *args[1:], **kwargs)
        except skipped as e:  # pytest.skip() inside the test: a unittest skip here
            ins.skipTest(getattr(e, 'msg', str(e)))

    for _ in range(times):
        ins = type(instance)(instance._testMethodName)
        suite = unittest.TestSuite()
        suite.addTest(unittest.FunctionTestCase(
            lambda: trial(ins), setUp=ins.setUp, tearDown=ins.tearDown))
        result = QuietTestRunner().run(suite)
        if len(result.skipped) == 1:
            instance.skipTest(result.skipped[0][1])
        elif result.wasSuccessful():
            successes += 1
        else:
            failed_results.append(result)
            failures += 1
        if successes >= min_success:
            return
        if failures > times - min_success:
            fail()
    fail()


def _pytest_skip_exception():
    try:
        import _pytest.outcomes
    except ImportError:  # pragma: no cover - pytest is a test dependency
        return ()
    return _pytest.outcomes.Skipped


def _run_plain(f, args, kwargs, times, min_success):
    successes = failures = 0
    first_error = None
    for _ in range(times):
        try:
            f(*args, **kwargs)
        except unittest.SkipTest:
            raise
        except Exception as e:  # AssertionError included
            failures += 1
            if first_error is None:
                first_error = e
        else:
            successes += 1
        if successes >= min_success:
            return
        if failures > times - min_success:
            break
    raise AssertionError('Fail: {}, Success: {}\n\nThe first error message:\n{!r}'.format(
        failures, successes, first_error)) from first_error


def repeat(times):
    """Decorator: the test must pass `times` times in a row."""
    return repeat_with_success_at_least(times, times)


def retry(times):
    """Decorator: the test must pass at least once in `times` trials."""
    return repeat_with_success_at_least(times, 1)
