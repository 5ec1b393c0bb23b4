"""Helpers shared by extensions: atomic text writes and lazy module lookups."""
import os
import tempfile


def atomic_write_text(path, text):
    """Write ``text`` to ``path`` through a temporary file in the same directory and
    ``os.replace``, so readers never see a partial file."""
    directory, name = os.path.split(path)
    directory = directory or '.'
    os.makedirs(directory, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix='.' + name + '.', suffix='.tmp', dir=directory)
    try:
        with os.fdopen(fd, 'w') as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.remove(tmp)
        except OSError:
            pass
        raise


def is_serializer(serializer):
    """True when ``serializer`` saves (a :class:`~minichainer.serializer.Serializer`)."""
    from minichainer import serializer as serializer_module
    return isinstance(serializer, serializer_module.Serializer)
