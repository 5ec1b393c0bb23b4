"""atomic_write.write_atomically's commit hook (used by the dataset downloads)."""
import os

import pytest

from minichainer.utils import atomic_write


def _write(text):
    def write(fd, tmp_path):
        with os.fdopen(fd, 'w') as f:
            f.write(text)
    return write


def test_commit_does_the_rename(tmp_path):
    seen = []

    def commit(tmp, final):
        seen.append((atomic_write.parse_temp_name(os.path.basename(tmp)), final))
        os.replace(tmp, final)

    atomic_write.write_atomically(str(tmp_path), 'a.txt', _write('x'), commit=commit)
    assert (tmp_path / 'a.txt').read_text() == 'x'
    assert seen == [(('a.txt', os.getpid()), str(tmp_path / 'a.txt'))]
    assert os.listdir(tmp_path) == ['a.txt']


def test_a_temporary_the_commit_leaves_is_removed(tmp_path):
    (tmp_path / 'a.txt').write_text('first')
    atomic_write.write_atomically(str(tmp_path), 'a.txt', _write('second'),
                                  commit=lambda tmp, final: None)   # keeps the first
    assert (tmp_path / 'a.txt').read_text() == 'first'
    assert os.listdir(tmp_path) == ['a.txt']


def test_a_failing_commit_leaves_nothing(tmp_path):
    def commit(tmp, final):
        raise OSError('disk full')

    with pytest.raises(OSError, match='disk full'):
        atomic_write.write_atomically(str(tmp_path), 'a.txt', _write('x'), commit=commit)
    assert os.listdir(tmp_path) == []
    assert not atomic_write.is_active_temp(str(tmp_path / 'anything'))
