"""Small test helpers (``chainer.testing.helper``)."""
import contextlib
import sys
import unittest
import warnings


def _requirements_met(requirements):
    from importlib import metadata
    try:
        from packaging.requirements import Requirement
    except ImportError:  # pragma: no cover
        Requirement = None
    for requirement in requirements:
        if Requirement is None:
            name, spec = requirement, None
        else:
            parsed = Requirement(requirement)
            name, spec = parsed.name, parsed.specifier
        try:
            version = metadata.version(name)
        except metadata.PackageNotFoundError:
            return False
        if spec is not None and not spec.contains(version, prereleases=True):
            return False
    return True


def with_requires(*requirements):
    """Skip the test unless all ``requirements`` (e.g. ``'numpy>=1.10'``) are installed."""
    return unittest.skipIf(not _requirements_met(requirements),
                           'requires: {}'.format(','.join(requirements)))


def without_requires(*requirements):
    """Skip the test when the ``requirements`` are all installed."""
    return unittest.skipIf(_requirements_met(requirements),
                           'requires: {}'.format(','.join(requirements)))


@contextlib.contextmanager
def assert_warns(expected):
    """Context manager asserting that a warning of category ``expected`` is raised inside.

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
    """``unittest.mock.patch`` that wraps the patched object (calls still reach it).

    Args:
        target (str): full dotted name of the object to patch; its top-level module must
            already be imported.
        wraps: object the mock wraps (default: the object ``target`` names).
    """
    from unittest import mock
    try:
        wraps = kwargs.pop('wraps')
    except KeyError:
        wraps = _import_object_from_name(target)
    return mock.patch(target, *args, wraps=wraps, **kwargs)
