"""Class-level test parameterization (`chainer.testing.parameterize`, `product`...)."""
import functools
import io
import itertools
import re
import types
import unittest

import numpy

from minichainer.testing import _bundle


def _shorten(s, maxlen):
    # keep the head and tail of a long string around '...'
    if len(s) <= maxlen:
        return s
    n1 = (maxlen - 3) // 2
    n2 = maxlen - 3 - n1
    return s[:n1] + '...' + s[-n2:]


_ADDRESS = re.compile(r' at 0x[0-9a-fA-F]+')

# NumPy 2 writes scalars as ``np.int32(1)`` and names ``numpy.bool_`` ``bool``; class names
# are written as NumPy 1 (Chainer 7.8.1's NumPy) writes them, so that a test has one id on
# every NumPy.
_PRINT_AS_NUMPY1 = {'legacy': '1.25'} if int(numpy.__version__.split('.')[0]) >= 2 else {}


def _param_to_str(value):
    # Deliberate difference: memory addresses in a repr (``<object at 0x7f...>``) are
    # dropped so that generated class names are the same in every process (pytest-xdist
    # workers must collect identical test ids).
    # Classes, functions and modules show their ``__name__``, as in Chainer.
    if value is numpy.bool_:
        return 'bool_'
    name = getattr(value, '__name__', None)
    if isinstance(name, str):
        return name
    with numpy.printoptions(**_PRINT_AS_NUMPY1):
        text = repr(value)
    return _ADDRESS.sub('', text)


def _make_class_name(base_name, i_param, param):
    params = ', '.join('{}={}'.format(k, _shorten(_param_to_str(v), 100))
                       for k, v in sorted(param.items()))
    return '{}_param_{}_{{{}}}'.format(base_name, i_param, _shorten(params, 5000))


def _parameterize_test_case_generator(base, params):
    for i, param in enumerate(params):
        if not isinstance(param, dict):
            raise TypeError('parameterize: each parameter set must be a dict, got {!r}'
                            .format(param))
        members = {}

        def __str__(self, _param=param):
            return '{}  parameter: {}'.format(base.__str__(self), _param)

        members['__str__'] = __str__
        for key, value in sorted(param.items()):
            if isinstance(value, types.FunctionType):
                # a plain function parameter must not become a bound method
                members[key] = staticmethod(value)
            else:
                members[key] = value

        def method_generator(base_method, _param=param):
            @functools.wraps(base_method)
            def new_method(self, *args, **kwargs):
                try:
                    result = base_method(self, *args, **kwargs)
                    if isinstance(result, unittest.SkipTest):
                        # `return unittest.SkipTest(msg)` (Chainer's own optimizer
                        # tests) means a skip; Python 3.11 turned the ignored return
                        # value into a DeprecationWarning, an error under -W error
                        raise result
                    return result
                except unittest.SkipTest:
                    raise
                except Exception as e:
                    s = io.StringIO()
                    s.write('Parameterized test failed.\n\n')
                    s.write('Base test method: {}.{}\n'.format(
                        base.__name__, base_method.__name__))
                    s.write('Test parameters:\n')
                    for k, v in sorted(_param.items()):
                        s.write('  {}: {}\n'.format(k, v))
                    _reraise_with_message(e, s.getvalue())
            return new_method

        yield _make_class_name(base.__name__, i, param), members, method_generator


def _reraise_with_message(exc, message):
    # Re-raise the same exception type with the parameters prepended when the type allows
    # it; otherwise chain a note onto the original exception.
    try:
        new = type(exc)('{}\n{}: {}'.format(message, type(exc).__name__, exc))
    except Exception:
        new = None
    if new is None or type(new) is not type(exc):
        if hasattr(exc, 'add_note'):
            exc.add_note(message)
        raise exc
    raise new.with_traceback(exc.__traceback__) from exc


def parameterize(*params):
    """Class decorator generating one test class per parameter dict.

    Each dict's items become class attributes of a generated subclass named
    `{Base}_param_{i}_{{k=v, ...}}` added to the test module; failures report the
    parameters. May be stacked with itself, `inject_backend_tests` and `fix_random`.
    """
    return _bundle.make_decorator(
        lambda base: _parameterize_test_case_generator(base, params))


def _values_to_dicts(names, values):
    # 'a,b', [(1, 2), (3, 4)] -> [{'a': 1, 'b': 2}, {'a': 3, 'b': 4}]; a single name takes
    # each value as it is.
    if not isinstance(names, str):
        raise TypeError('testing: parameter names must be a str such as \'a,b\', got {!r}'
                        .format(names))
    if not isinstance(values, (tuple, list)):
        raise TypeError('testing: values of {!r} must be a tuple or list, got {!r}'.format(
            names, values))
    names = names.split(',')
    if len(names) == 1:
        return [{names[0]: value} for value in values]
    params = []
    for value in values:
        if not isinstance(value, (tuple, list)) or len(value) != len(names):
            raise ValueError('testing: each value of {!r} must be a tuple of {} items, got '
                             '{!r}'.format(','.join(names), len(names), value))
        params.append(dict(zip(names, value)))
    return params


def from_pytest_parameterize(names, values):
    """Convert pytest-style `('a,b', [(1, 2), ...])` to a list of parameter dicts."""
    return _values_to_dicts(names, values)


pytest_to_chainer = from_pytest_parameterize  # name used by earlier Chainer versions


def parameterize_pytest(names, values):
    """[`parameterize`][minichainer.testing.parameterized.parameterize] with pytest-style
    arguments (`'a,b', [(1, 2), ...]`)."""
    return parameterize(*from_pytest_parameterize(names, values))


def product(parameter):
    """Cartesian product of parameters.

    `product({'a': [1, 2], 'b': [3]})` gives `[{'a': 1, 'b': 3}, {'a': 2, 'b': 3}]`
    (keys sorted); a key `'x,y'` takes tuples of values. A list of lists of dicts gives
    the merged dicts of every combination.
    """
    if isinstance(parameter, dict):
        return product_dict(*[_values_to_dicts(names, values)
                              for names, values in sorted(parameter.items())])
    if isinstance(parameter, list):
        if not all(isinstance(x, list) for x in parameter) or \
                not all(isinstance(d, dict) for x in parameter for d in x):
            raise TypeError('product: parameter must be list of lists of dicts')
        return product_dict(*parameter)
    raise TypeError('product: parameter must be either dict or list. Actual: {}'.format(
        type(parameter)))


def product_dict(*parameters):
    """Merged dicts of the Cartesian product of lists of dicts."""
    return [{k: v for d in dicts for k, v in d.items()}
            for dicts in itertools.product(*parameters)]


# Chainer's tests/conftest.py swaps product_dict for the pairwise variant while collecting
# when CHAINER_TEST_PAIRWISE_PARAMETERIZATION=always.
_product_dict_orig = product_dict


def _pairwise_product_dict(*parameters):
    """Like [`product_dict`][minichainer.testing.parameterized.product_dict] but only enough
    combinations to cover every pair."""
    if len(parameters) <= 2:
        return _product_dict_orig(*parameters)
    lists = [list(dicts) for dicts in parameters]
    chosen = sorted(_indices_covering_all_pairs([len(dicts) for dicts in lists]))
    return [{k: v for i, dicts in zip(index, lists) for k, v in dicts[i].items()}
            for index in chosen]


def _indices_covering_all_pairs(shape):
    # Greedy: walk all index tuples in a fixed shuffled order (RandomState(0)) and keep
    # those that cover a not yet covered pair of (axis i value, axis j value).
    axes = range(len(shape))
    pairs = list(itertools.combinations(axes, 2))
    uncovered = {(i, j): set(itertools.product(range(shape[i]), range(shape[j])))
                 for i, j in pairs}
    candidates = list(itertools.product(*[range(n) for n in shape]))
    numpy.random.RandomState(seed=0).shuffle(candidates)
    for index in candidates:
        new = False
        for i, j in pairs:
            key = (index[i], index[j])
            if key in uncovered[(i, j)]:
                uncovered[(i, j)].discard(key)
                new = True
        if new:
            yield index
