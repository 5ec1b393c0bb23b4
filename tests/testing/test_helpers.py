"""parameterize/product, attr marks, condition, assert_warns, fix_random, serializers,
BackendConfig, run_module, get_trainer_with_mock_updater re-export."""
import pathlib
import random
import unittest
import warnings

import numpy
import pytest

import minichainer
import minichainer.links as L
from minichainer import testing
from minichainer.testing import attr
from minichainer.testing import condition


# --- parameterize -------------------------------------------------------------------

@testing.parameterize(
    {'a': 1, 'f': numpy.square},
    {'a': 2, 'f': lambda x: x + 1},
)
class TestParams(unittest.TestCase):

    def test_attribute(self):
        assert self.a in (1, 2)
        # function parameters are not bound as methods
        assert self.f(3) in (9, 4)


def test_parameterize_generates_one_class_per_dict():
    names = sorted(k for k in globals() if k.startswith('TestParams_param_'))
    assert len(names) == 2
    assert names[0].startswith('TestParams_param_0_{a=1')
    assert globals()[names[1]].a == 2


def test_parameterized_failure_reports_parameters():
    @testing.parameterize({'value': 7})
    class TestFail(unittest.TestCase):
        def test_x(self):
            raise ValueError('boom')

    (case,) = [c.klass for c in TestFail.cases]
    result = unittest.TestResult()
    unittest.defaultTestLoader.loadTestsFromTestCase(case).run(result)
    assert len(result.errors) == 1
    text = result.errors[0][1]
    assert 'value: 7' in text and 'boom' in text and 'ValueError' in text
    for c in TestFail.cases:  # keep this module's namespace clean
        globals().pop(c.class_name, None)


def test_parameterized_test_returning_skiptest_is_skipped():
    # Chainer's optimizer tests `return unittest.SkipTest(msg)`: a skip, not a
    # DeprecationWarning (Python 3.11) that -W error makes a failure
    @testing.parameterize({'value': 7})
    class TestReturnsSkip(unittest.TestCase):
        def test_x(self):
            return unittest.SkipTest('not for this case')

    (case,) = [c.klass for c in TestReturnsSkip.cases]
    result = unittest.TestResult()
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        unittest.defaultTestLoader.loadTestsFromTestCase(case).run(result)
    assert not result.errors and not result.failures
    assert [reason for _, reason in result.skipped] == ['not for this case']
    for c in TestReturnsSkip.cases:
        globals().pop(c.class_name, None)


def test_product_of_dict_sorts_keys():
    assert testing.product({'b': [1, 2], 'a': ['x']}) == [
        {'a': 'x', 'b': 1}, {'a': 'x', 'b': 2}]


def test_product_of_list_of_lists_merges_dicts():
    p = testing.product([[{'a': 1}, {'a': 2}], [{'b': 3, 'c': 4}]])
    assert p == [{'a': 1, 'b': 3, 'c': 4}, {'a': 2, 'b': 3, 'c': 4}]
    with pytest.raises(TypeError):
        testing.product([{'a': 1}])
    with pytest.raises(TypeError):
        testing.product('ab')


def test_product_dict():
    assert testing.product_dict([{'a': 1}, {'a': 2}], [{'b': 3}]) == [
        {'a': 1, 'b': 3}, {'a': 2, 'b': 3}]


def test_pytest_to_chainer():
    assert testing.pytest_to_chainer('a,b', [(1, 2), (3, 4)]) == [
        {'a': 1, 'b': 2}, {'a': 3, 'b': 4}]
    assert testing.pytest_to_chainer('a', [1, 2]) == [{'a': 1}, {'a': 2}]


# --- attr ----------------------------------------------------------------------------

def _outcome(case_cls):
    result = unittest.TestResult()
    unittest.defaultTestLoader.loadTestsFromTestCase(case_cls).run(result)
    return result


def test_hardware_marks_skip_and_carry_pytest_marks(no_cupy):
    class Case(unittest.TestCase):
        @attr.gpu
        def test_gpu(self):
            raise AssertionError('must not run')

        @attr.multi_gpu(2)
        def test_multi(self):
            raise AssertionError('must not run')

        @attr.cudnn
        def test_cudnn(self):
            raise AssertionError('must not run')

        @attr.ideep
        def test_ideep(self):
            raise AssertionError('must not run')

        @attr.chainerx
        def test_chainerx(self):
            raise AssertionError('must not run')

        @attr.slow
        def test_slow(self):
            pass

    result = _outcome(Case)
    assert result.testsRun == 6
    assert len(result.skipped) == 5
    assert not result.failures and not result.errors
    marks = {m.name for m in Case.test_gpu.pytestmark}
    assert {'gpu', 'skip'} <= marks
    assert [m.name for m in Case.test_slow.pytestmark] == ['slow']


@attr.gpu
def test_marked_function_runs_only_where_a_gpu_is_usable():
    from minichainer.backends import cuda
    assert cuda.available, 'a gpu test must be skipped where CuPy cannot be used'


# --- condition -----------------------------------------------------------------------

class _Counter:
    calls = 0


def _flaky_case(fail_first, decorator):
    class Case(unittest.TestCase):
        setups = 0

        def setUp(self):
            type(self).setups += 1

        @decorator
        def test_it(self):
            _Counter.calls += 1
            if _Counter.calls <= fail_first:
                raise AssertionError('flaky')
    return Case


@pytest.mark.parametrize('decorator,fail_first,ok,calls', [
    (condition.retry(3), 2, True, 3),
    (condition.retry(3), 3, False, 3),
    (condition.repeat(3), 0, True, 3),
    (condition.repeat(3), 1, False, 1),
    (condition.repeat_with_success_at_least(4, 2), 1, True, 3),
])
def test_condition_decorators(decorator, fail_first, ok, calls):
    _Counter.calls = 0
    case = _flaky_case(fail_first, decorator)
    result = _outcome(case)
    assert result.wasSuccessful() == ok
    assert _Counter.calls == calls
    # each trial gets its own setUp (plus the outer one)
    assert case.setups == calls + 1


def test_condition_on_plain_function():
    calls = []

    @condition.retry(2)
    def f():
        calls.append(1)
        if len(calls) == 1:
            raise AssertionError('first fails')
    f()
    assert len(calls) == 2

    @condition.repeat(2)
    def g():
        raise AssertionError('always')
    with pytest.raises(AssertionError, match='Fail: 1'):
        g()


def test_condition_skip_propagates():
    class Case(unittest.TestCase):
        @condition.retry(3)
        def test_it(self):
            self.skipTest('nope')
    result = _outcome(Case)
    assert len(result.skipped) == 1


def test_repeat_with_success_at_least_validates():
    with pytest.raises(AssertionError):
        condition.repeat_with_success_at_least(2, 3)


def test_condition_turns_pytest_skip_into_unittest_skip():
    calls = []

    class Case(unittest.TestCase):
        def runTest(self):
            pass

        def skipping(self):
            calls.append(1)
            pytest.skip('reason xyz')

    with pytest.raises(unittest.SkipTest, match='reason xyz'):
        condition.repeat(5)(Case.skipping)(Case())
    assert calls == [1]


def test_condition_failure_message_contains_first_error():
    class Case(unittest.TestCase):
        def runTest(self):
            pass

        def failing(self):
            raise Exception('the original problem')

    with pytest.raises(AssertionError, match='first error message') as info:
        condition.retry(3)(Case.failing)(Case())
    assert 'the original problem' in str(info.value)


# --- helper --------------------------------------------------------------------------

def test_assert_warns():
    with testing.assert_warns(DeprecationWarning):
        warnings.warn('x', DeprecationWarning)
    with pytest.raises(AssertionError, match='UserWarning not triggerred'):
        with testing.assert_warns(UserWarning):
            pass


def test_with_requires():
    class Case(unittest.TestCase):
        @testing.with_requires('numpy>=1.0')
        def test_a(self):
            pass

        @testing.with_requires('numpy<1.0')
        def test_b(self):
            pass

        @testing.with_requires('surely-not-installed-package-xyz')
        def test_c(self):
            pass
    result = _outcome(Case)
    assert result.testsRun == 3 and len(result.skipped) == 2


# --- fix_random ----------------------------------------------------------------------

def test_fix_random_on_function_seeds_100_and_restores():
    numpy.random.seed(5)
    random.seed(5)
    expected_after = numpy.random.RandomState(5).uniform()
    seen = []

    @testing.fix_random()
    def test_draw():
        seen.append(numpy.random.uniform())
        random.random()

    test_draw()
    test_draw()
    assert seen[0] == seen[1] == numpy.random.RandomState(100).uniform()
    assert numpy.random.uniform() == expected_after


def test_fix_random_on_class():
    @testing.fix_random()
    class Case(unittest.TestCase):
        def setUp(self):
            self.x = numpy.random.uniform()

        def test_a(self):
            assert self.x == numpy.random.RandomState(100).uniform()
            assert 0 <= testing.generate_seed() < 0xffffffff
    result = _outcome(Case)
    assert result.wasSuccessful(), result.failures + result.errors


def test_generate_seed_outside_fix_random_raises():
    with pytest.raises(RuntimeError):
        testing.generate_seed()


# --- serializer ----------------------------------------------------------------------

def test_save_and_load_npz():
    src = L.Linear(3, 2)
    dst = L.Linear(3, 2)
    testing.save_and_load_npz(src, dst)
    numpy.testing.assert_array_equal(src.W.array, dst.W.array)
    numpy.testing.assert_array_equal(src.b.array, dst.b.array)


def test_save_and_load_custom():
    log = []
    testing.save_and_load('src', 'dst', 'f.txt',
                          lambda path, obj: pathlib.Path(path).write_text(obj),
                          lambda path, obj: log.append((pathlib.Path(path).read_text(), obj)))
    assert log == [('src', 'dst')]


# --- BackendConfig / inject_backend_tests -------------------------------------------

def test_backend_config_cpu():
    config = testing.BackendConfig({})
    assert config.xp is numpy
    assert config.device == minichainer.get_device('@numpy')
    assert config.get_pytest_marks() == []
    assert config.get_func_str().startswith('use_chainerx_false__chainerx_device_None__')
    a = numpy.arange(3)
    assert config.get_array(a) is a
    with config:
        assert minichainer.config.use_cudnn == 'never'
    assert 'use_cuda=False' in repr(config)


def test_backend_config_gpu_and_errors(no_cupy):
    config = testing.BackendConfig({'use_cuda': True})
    assert config.cuda_device == 0
    assert attr.gpu in config.get_pytest_marks()
    with pytest.raises(RuntimeError, match='CPU/NumPy'):
        config.device
    with pytest.raises(ValueError):
        testing.BackendConfig({'no_such': 1})
    with pytest.raises(TypeError):
        testing.BackendConfig([])
    with pytest.raises(TypeError):
        testing.inject_backend_tests('test_x', [{}])
    with pytest.raises(TypeError):
        testing.inject_backend_tests(None, {})


@testing.inject_backend_tests(None, [{}, {'use_cuda': True, 'use_cudnn': 'always'}])
class TestInjected(unittest.TestCase):
    def test_gets_backend_config(self, backend_config):
        assert isinstance(backend_config, testing.BackendConfig)
        assert backend_config.xp is numpy


def test_injected_classes():
    names = sorted(k for k in globals() if k.startswith('TestInjected_'))
    assert len(names) == 2
    gpu = [n for n in names if 'use_cuda_true' in n][0]
    assert 'use_cudnn_always' in gpu
    assert {m.name for m in globals()[gpu].test_gets_backend_config.pytestmark} >= {
        'gpu', 'cudnn'}


# --- misc ----------------------------------------------------------------------------

def test_run_module_does_nothing_unless_main():
    assert testing.run_module('not_main', __file__) is None


def test_get_trainer_with_mock_updater_is_reexported():
    from minichainer.testing.training import get_trainer_with_mock_updater
    assert testing.get_trainer_with_mock_updater is get_trainer_with_mock_updater
    trainer = testing.get_trainer_with_mock_updater((2, 'iteration'))
    trainer.run()
    assert trainer.updater.iteration == 2


def test_patch_wraps_the_original():
    import minichainer.functions as F
    x = numpy.array([-1.0, 2.0], numpy.float32)
    with testing.patch('minichainer.functions.relu') as relu:
        y = F.relu(x)
    assert relu.call_count == 1
    numpy.testing.assert_array_equal(y.array, [0, 2])


def test_generate_matrix():
    from minichainer.testing import matrix
    a = matrix.generate_matrix((2, 3, 4), numpy.float32, singular_values=[1.0, 2.0, 3.0])
    assert a.shape == (2, 3, 4) and a.dtype == numpy.float32
    numpy.testing.assert_allclose(numpy.linalg.svd(a, compute_uv=False),
                                  [[3, 2, 1], [3, 2, 1]], rtol=1e-5)
    with pytest.raises(TypeError):
        matrix.generate_matrix((2, 2))
    with pytest.raises(ValueError):
        matrix.generate_matrix((2,), singular_values=1)
    with pytest.raises(ValueError):
        matrix.generate_matrix((2, 2), singular_values=-1)


def test_product_with_joined_names_and_class_names():
    assert testing.product({'a,b': [(1, 2), (3, 4)], 'c': [numpy.float32]}) == [
        {'a': 1, 'b': 2, 'c': numpy.float32}, {'a': 3, 'b': 4, 'c': numpy.float32}]
    from minichainer.testing import parameterized
    name = parameterized._make_class_name('T', 0, {'dtype': numpy.float32, 'a': (1,)})
    assert name == 'T_param_0_{a=(1,), dtype=float32}'
    assert testing.from_pytest_parameterize('a', [(1, 2)]) == [{'a': (1, 2)}]
    # functions show their __name__, as in Chainer
    name = parameterized._make_class_name('T', 1, {'f': lambda x: x, 'g': numpy.exp})
    assert name == 'T_param_1_{f=<lambda>, g=exp}'

    # NumPy scalars and numpy.bool_ are written as on NumPy 1, on every NumPy
    scalar_repr = repr(numpy.int32(1))
    name = parameterized._make_class_name(
        'T', 3, {'s': (numpy.int32(1), numpy.float32(0.5)), 'dtype': numpy.bool_})
    assert name == 'T_param_3_{dtype=bool_, s=(1, 0.5)}'
    assert repr(numpy.int32(1)) == scalar_repr  # the print options are restored

    # no memory addresses: the same names in every pytest-xdist worker
    class Plain:
        pass
    name = parameterized._make_class_name('T', 2, {'o': Plain()})
    assert name == 'T_param_2_{o=<' + Plain.__module__ + \
        '.test_product_with_joined_names_and_class_names.<locals>.Plain object>}'
    with pytest.raises(ValueError):
        testing.from_pytest_parameterize('a,b', [(1, 2, 3)])


def test_pairwise_product_dict_covers_every_pair():
    from minichainer.testing import parameterized
    lists = [[{'a': i} for i in range(3)], [{'b': i} for i in range(3)],
             [{'c': i} for i in range(2)], [{'d': i} for i in range(2)]]
    full = parameterized._product_dict_orig(*lists)
    pairwise = parameterized._pairwise_product_dict(*lists)
    assert len(pairwise) < len(full) == 36
    for k1, k2 in [('a', 'b'), ('a', 'c'), ('b', 'd'), ('c', 'd')]:
        assert {(p[k1], p[k2]) for p in pairwise} == {(p[k1], p[k2]) for p in full}
    assert parameterized._pairwise_product_dict(*lists[:2]) == \
        parameterized._product_dict_orig(*lists[:2])

