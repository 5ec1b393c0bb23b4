"""Machinery shared by `parameterize`, `inject_backend_tests` and `fix_random`.

A decorator built with `make_decorator` replaces a test class by generated subclasses
(added to the class's module under their own names, so test runners collect them) and
returns a `_ParameterizedTestCaseBundle`, which further such decorators accept.
"""
import collections
import inspect
import sys

_TestCaseTuple = collections.namedtuple('_TestCaseTuple', ('klass', 'module_name', 'class_name'))


class _ParameterizedTestCaseBundle:
    """The generated test classes of one decorated class (not itself collected as a test)."""

    def __init__(self, cases):
        if not isinstance(cases, list) or not all(isinstance(c, _TestCaseTuple) for c in cases):
            raise TypeError('_ParameterizedTestCaseBundle: cases must be a list of '
                            '_TestCaseTuple, got {!r}'.format(cases))
        self.cases = cases

    def __repr__(self):
        return '<parameterized test cases {}>'.format([c.class_name for c in self.cases])


def _module_of(name):
    module = sys.modules.get(name)
    if module is not None:
        return module
    # A module being executed without a sys.modules entry: find its globals on the stack.
    frame = inspect.currentframe()
    while frame is not None:
        if frame.f_globals.get('__name__') == name:
            namespace = frame.f_globals
            return _GlobalsModule(name, namespace)
        frame = frame.f_back
    raise RuntimeError('testing: cannot find module {!r} to add generated test cases to'
                       .format(name))


class _GlobalsModule:
    # setattr/delattr on a module's globals dict, for modules not in sys.modules
    def __init__(self, name, namespace):
        object.__setattr__(self, '__name__', name)
        object.__setattr__(self, '_ns', namespace)

    def __setattr__(self, key, value):
        self._ns[key] = value

    def __delattr__(self, key):
        self._ns.pop(key, None)


def make_decorator(test_case_generator):
    """Return a class decorator driven by `test_case_generator`.

    `test_case_generator(base)` yields `(class_name, members, method_generator)`;
    `method_generator(method)` returns the replacement of each `test_*` method, or
    None to drop it.
    """
    def decorate(cases):
        if isinstance(cases, _ParameterizedTestCaseBundle):
            cases = cases.cases
        elif isinstance(cases, type):
            cases = [_TestCaseTuple(cases, None, None)]
        else:
            raise TypeError('testing: a parameterizing decorator must be applied to a test '
                            'class, got {!r}'.format(cases))
        generated = []
        for klass, module_name, class_name in cases:
            if module_name is not None:
                try:
                    delattr(_module_of(module_name), class_name)
                except AttributeError:
                    pass
            else:
                module_name = klass.__module__
            generated += _generate_test_cases(module_name, klass, test_case_generator)
        return _ParameterizedTestCaseBundle(generated)
    return decorate


def _generate_case(base, module, class_name, members, method_generator):
    cls = type(class_name, (base,), dict(members))
    cls.__qualname__ = class_name
    for name, method in inspect.getmembers(cls, predicate=inspect.isfunction):
        if name.startswith('test_'):
            new_method = method_generator(method)
            if new_method is None:
                # drop the method: shadow it unless it is defined on the new class itself
                setattr(cls, name, None)
            else:
                setattr(cls, name, new_method)
    setattr(module, class_name, cls)
    return _TestCaseTuple(cls, module.__name__, class_name)


def _generate_test_cases(module_name, base_class, test_case_generator):
    module = _module_of(module_name)
    return [_generate_case(base_class, module, name, members, method_generator)
            for name, members, method_generator in test_case_generator(base_class)]
