"""Class-level test parameterization (``chainer.testing.parameterize``, ``product``...)."""
import functools
import io
import itertools
import types
import unittest

from minichainer.testing import _bundle


def _shorten(s, maxlen):
    # keep the head and tail of a long string around '...'
    if len(s) <= maxlen:
        return s
    n1 = (maxlen - 3) // 2
    n2 = maxlen - 3 - n1
    return s[:n1] + '...' + s[-n2:]


def _make_class_name(base_name, i_param, param):
    params = ', '.join('{}={}'.format(k, _shorten(repr(v), 100)) for k, v in param.items())
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
        for key, value in param.items():
            if isinstance(value, types.FunctionType):
                # a plain function parameter must not become a bound method
                members[key] = staticmethod(value)
            else:
                members[key] = value

        def method_generator(base_method, _param=param):
            @functools.wraps(base_method)
            def new_method(self, *args, **kwargs):
                try:
                    return base_method(self, *args, **kwargs)
                except unittest.SkipTest:
                    raise
                except Exception as e:
                    s = io.StringIO()
                    s.write('Parameterized test failed.\n\n')
                    s.write('Base test method: {}.{}\n'.format(
                        base.__name__, base_method.__name__))
                    s.write('Test parameters:\n')
                    for k, v in _param.items():
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
    ``{Base}_param_{i}_{{k=v, ...}}`` added to the test module; failures report the
    parameters. May be stacked with itself, ``inject_backend_tests`` and ``fix_random``.
    """
    return _bundle.make_decorator(
        lambda base: _parameterize_test_case_generator(base, params))


def pytest_to_chainer(names, values):
    """Convert pytest-style ``('a,b', [(1, 2), ...])`` to a list of parameter dicts."""
    if not isinstance(names, str):
        raise TypeError('pytest_to_chainer: names must be a str, got {!r}'.format(names))
    if not isinstance(values, (tuple, list)):
        raise TypeError('pytest_to_chainer: values must be a tuple or list, got {!r}'
                        .format(values))
    names = names.split(',')
    params = []
    for value in values:
        if not isinstance(value, (tuple, list)):
            value = (value,)
        if len(value) != len(names):
            raise ValueError('pytest_to_chainer: {} names but {} values in {!r}'.format(
                len(names), len(value), value))
        params.append(dict(zip(names, value)))
    return params


def parameterize_pytest(names, values):
    """:func:`parameterize` with pytest-style arguments (``'a,b', [(1, 2), ...]``)."""
    return parameterize(*pytest_to_chainer(names, values))


def product(parameter):
    """Cartesian product of parameters.

    ``product({'a': [1, 2], 'b': [3]})`` gives ``[{'a': 1, 'b': 3}, {'a': 2, 'b': 3}]``
    (keys sorted); a list of lists of dicts gives the merged dicts of every combination.
    """
    if isinstance(parameter, dict):
        keys = sorted(parameter)
        values = [parameter[key] for key in keys]
        return [dict(zip(keys, vals)) for vals in itertools.product(*values)]
    if isinstance(parameter, list):
        if not all(isinstance(x, list) for x in parameter) or \
                not all(isinstance(d, dict) for x in parameter for d in x):
            raise TypeError('product: parameter must be list of lists of dicts')
        result = []
        for dicts in itertools.product(*parameter):
            merged = {}
            for d in dicts:
                merged.update(d)
            result.append(merged)
        return result
    raise TypeError('product: parameter must be either dict or list. Actual: {}'.format(
        type(parameter)))


def product_dict(*parameters):
    """Merged dicts of the Cartesian product of lists of dicts."""
    return [{k: v for d in dicts for k, v in d.items()}
            for dicts in itertools.product(*parameters)]
