"""Helpers shared by extensions: atomic text writes and lazy module lookups."""
import os

from minichainer.serializers import _atomic


def mkstemp(directory, name, suffix='.tmp'):
    """Create a hidden temporary file for ``name`` in ``directory``; return
    ``(fd, path)`` (see :mod:`minichainer.serializers._atomic` for its name)."""
    return _atomic.mkstemp(directory, name, suffix=suffix)


def write_atomically(directory, name, write, prefix=None, suffix='.tmp', fsync=False):
    """Create ``directory/name`` so that readers never see a partial file.

    ``write(fd, tmp_path)`` fills a hidden temporary file in ``directory`` (created if
    missing) and must close ``fd``; the file then replaces ``directory/name`` with
    ``os.replace`` (after an ``fsync`` when asked). On any error the temporary file is
    removed and the error re-raised. ``prefix`` (default ``name``) and ``suffix`` name
    the temporary file.
    """
    _atomic.write_atomically(directory, name, write, prefix=prefix, suffix=suffix,
                             fsync=fsync)


def atomic_write_text(path, text):
    """Write ``text`` to ``path`` through a temporary file in the same directory and
    ``os.replace``, so readers never see a partial file."""
    def write(fd, tmp):
        with os.fdopen(fd, 'w') as f:
            f.write(text)

    directory, name = os.path.split(path)
    write_atomically(directory or '.', name, write)


def is_serializer(serializer):
    """True when ``serializer`` saves (a :class:`~minichainer.serializer.Serializer`)."""
    from minichainer import serializer as serializer_module
    return isinstance(serializer, serializer_module.Serializer)
