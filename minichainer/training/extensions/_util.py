"""Helpers shared by extensions: atomic text writes and lazy module lookups."""
import os
import tempfile


_file_mode = None


def _default_file_mode():
    # mkstemp creates 0600 files; finished files get the usual 0666 & ~umask.
    global _file_mode
    if _file_mode is None:
        umask = os.umask(0)
        os.umask(umask)
        _file_mode = 0o666 & ~umask
    return _file_mode


def mkstemp(directory, name, suffix='.tmp'):
    """Create a hidden temporary file for ``name`` in ``directory``; return
    ``(fd, path)``.  Its mode is that of a normally created file."""
    fd, tmp = tempfile.mkstemp(prefix='.' + name + '.', suffix=suffix, dir=directory)
    try:
        os.fchmod(fd, _default_file_mode())
    except (AttributeError, OSError):
        pass
    return fd, tmp


def write_atomically(directory, name, write, prefix=None, suffix='.tmp'):
    """Create ``directory/name`` so that readers never see a partial file.

    ``write(fd, tmp_path)`` fills a hidden temporary file in ``directory`` (created if
    missing) and must close ``fd``; the file then replaces ``directory/name`` with
    ``os.replace``. On any error the temporary file is removed and the error re-raised.
    ``prefix`` (default ``name``) and ``suffix`` name the temporary file.
    """
    os.makedirs(directory, exist_ok=True)
    fd, tmp = mkstemp(directory, name if prefix is None else prefix, suffix=suffix)
    try:
        write(fd, tmp)
        os.replace(tmp, os.path.join(directory, name))
    except BaseException:
        try:
            os.remove(tmp)
        except OSError:
            pass
        raise


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
