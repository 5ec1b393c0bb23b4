"""Small test helpers (`chainer.testing.helper`)."""
import contextlib
import importlib.metadata
import re
import sys
import unittest
from unittest import mock
import warnings

import minichainer


def _installed_version(name):
    """Version of distribution `name`; `chainer` is minichainer, which provides Chainer
    7.8.1's API (so `with_requires('chainer>=5')` runs, with or without a real Chainer
    installed, inside the compat runner or not)."""
    canonical = name.lower().replace('_', '-').replace('.', '-')
    if canonical == 'chainer':
        return minichainer.__version__
    if canonical == 'minichainer':
        return minichainer.minichainer_version
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return None


_OPERATORS = ('===', '~=', '==', '!=', '<=', '>=', '<', '>')


def _version_tuple(version):
    # '7.8.1' -> (7, 8, 1); a piece like '0rc1' counts by its leading number
    parts = [int(re.match(r'\d*', piece).group() or 0) for piece in version.split('.')]
    while parts and parts[-1] == 0:
        parts.pop()
    return tuple(parts)


def _simple_requirement(requirement):
    # 'name>=1.2,<3' without the optional ``packaging`` library: (name, [(op, version)])
    text = requirement.split(';')[0].strip()
    cut = len(text)
    for i, ch in enumerate(text):
        if ch in '<>=!~ [(':
            cut = i
            break
    name, rest = text[:cut].strip(), text[cut:]
    if '[' in rest:
        rest = rest[rest.index(']') + 1:]
    rest = rest.strip().strip('()')
    clauses = []
    for clause in filter(None, (c.strip() for c in rest.split(','))):
        for op in _OPERATORS:
            if clause.startswith(op):
                clauses.append((op, clause[len(op):].strip()))
                break
        else:
            raise ValueError('with_requires: cannot parse requirement {!r}'.format(
                requirement))
    return name, clauses


def _simple_contains(clauses, version):
    have = _version_tuple(version)
    for op, wanted in clauses:
        if op in ('==', '===') and wanted.endswith('.*'):
            prefix = _version_tuple(wanted[:-2])
            ok = have[:len(prefix)] == prefix
        else:
            want = _version_tuple(wanted)
            ok = {'==': have == want, '===': version == wanted, '!=': have != want,
                  '<=': have <= want, '>=': have >= want, '<': have < want,
                  '>': have > want, '~=': have >= want and
                  have[:max(len(want) - 1, 1)] == want[:max(len(want) - 1, 1)]}[op]
        if not ok:
            return False
    return True


def _requirements_met(requirements):
    try:
        from packaging.requirements import Requirement
    except ImportError:  # the optional ``packaging`` library is not installed
        Requirement = None
    for requirement in requirements:
        if Requirement is None:
            name, clauses = _simple_requirement(requirement)
        else:
            parsed = Requirement(requirement)
            name, spec = parsed.name, parsed.specifier
        version = _installed_version(name)
        if version is None:
            return False
        if Requirement is None:
            if not _simple_contains(clauses, version):
                return False
        elif not spec.contains(version, prereleases=True):
            return False
    return True


def with_requires(*requirements):
    """Skip the test unless all `requirements` (e.g. `'numpy>=1.10'`) are installed."""
    return unittest.skipIf(not _requirements_met(requirements),
                           'requires: {}'.format(','.join(requirements)))


def without_requires(*requirements):
    """Skip the test when the `requirements` are all installed."""
    return unittest.skipIf(_requirements_met(requirements),
                           'requires: {}'.format(','.join(requirements)))


@contextlib.contextmanager
def assert_warns(expected):
    """Context manager asserting that a warning of category `expected` is raised inside.

    Raises:
        AssertionError: no such warning was issued.
    """
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        yield
    if any(isinstance(w.message, expected) for w in caught):
        return
    name = getattr(expected, '__name__', str(expected))
    raise AssertionError('%s not triggerred' % name)


def _import_object_from_name(fullname):
    parts = fullname.split('.')
    obj = sys.modules.get(parts[0])
    if obj is None:
        raise RuntimeError('Can\'t import {}'.format(parts[0]))
    for i, part in enumerate(parts[1:]):
        obj = getattr(obj, part)
        if obj is None:
            raise RuntimeError('Can\'t find object {}'.format('.'.join(parts[:i + 2])))
    return obj


def patch(target, *args, **kwargs):
    """`unittest.mock.patch` that wraps the patched object (calls still reach it).

    Args:
        target (str): full dotted name of the object to patch; its top-level module must
            already be imported.
        wraps: object the mock wraps (default: the object `target` names).
    """
    try:
        wraps = kwargs.pop('wraps')
    except KeyError:
        wraps = _import_object_from_name(target)
    return mock.patch(target, *args, wraps=wraps, **kwargs)
