"""Legacy mode: the `collections` ABC aliases Python 3.10 removed (`collections.Iterable`)."""
import collections
import collections.abc
import os
import subprocess
import sys
import textwrap
import warnings

import pytest

from minichainer._compat import python_legacy

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
REMOVED = sys.version_info >= (3, 10)


@pytest.fixture
def installed():
    restored = python_legacy.install()
    yield restored
    python_legacy.uninstall()


@pytest.mark.skipif(not REMOVED, reason='this Python still has the aliases')
def test_removed_aliases_are_served_as_the_abc_classes_with_one_warning(installed):
    assert 'Iterable' in installed and 'Mapping' in installed
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        assert collections.Iterable is collections.abc.Iterable
        assert collections.Iterable is collections.abc.Iterable   # now a plain attribute
        assert isinstance({}, collections.Mapping)
    messages = [str(w.message) for w in caught]
    assert messages == [
        'collections.Iterable was removed in Python 3.10; minichainer\'s legacy mode '
        'restores it. Use collections.abc.Iterable instead.',
        'collections.Mapping was removed in Python 3.10; minichainer\'s legacy mode '
        'restores it. Use collections.abc.Mapping instead.']
    assert all(w.category is python_legacy.PythonLegacyWarning for w in caught)
    assert caught[0].filename == __file__
    with pytest.raises(AttributeError, match="no attribute 'NoSuchThing'"):
        collections.NoSuchThing


@pytest.mark.skipif(not REMOVED, reason='this Python still has the aliases')
def test_uninstall_removes_them_again():
    python_legacy.install()
    with pytest.warns(python_legacy.PythonLegacyWarning, match='collections.Sequence'):
        collections.Sequence
    python_legacy.uninstall()
    assert 'Sequence' not in vars(collections) and '__getattr__' not in vars(collections)
    with pytest.raises(AttributeError):
        collections.Sequence
    assert python_legacy.install() == python_legacy.install()   # idempotent
    python_legacy.uninstall()


def test_runner_serves_them_to_a_program_and_its_subprocesses(tmp_path):
    script = tmp_path / 'prog.py'
    script.write_text(textwrap.dedent("""
        import collections, subprocess, sys
        print('main', isinstance([1], collections.Iterable))
        code = 'import collections; print("child", collections.Sized is not None)'
        print(subprocess.run([sys.executable, '-c', code], capture_output=True,
                             text=True).stdout.strip())
    """))
    env = dict(os.environ, PYTHONPATH=ROOT, PYTHONDONTWRITEBYTECODE='1')
    proc = subprocess.run([sys.executable, '-m', 'minichainer.compat', str(script)],
                          capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert 'main True' in proc.stdout and 'child True' in proc.stdout
    if REMOVED:
        assert 'collections.Iterable was removed in Python 3.10' in proc.stderr
        proc = subprocess.run(
            [sys.executable, '-m', 'minichainer.compat', '--no-numpy-legacy', str(script)],
            capture_output=True, text=True, env=env, timeout=120)
        assert "has no attribute 'Iterable'" in proc.stderr
