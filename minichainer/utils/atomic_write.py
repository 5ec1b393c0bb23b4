"""Atomic file writes with recognizable temporary files, and their cleanup.

Every file minichainer writes (snapshots, `save_npz`/`save_hdf5` to a path, logs,
plots) is written to a hidden temporary file in the destination folder and renamed
into place with `os.replace`.  The temporary file is named

    .<name>.mc-<pid>-<8 random characters><suffix>        (suffix ``.tmp`` by default)

where `<pid>` is the id of the writing process.  A write that is interrupted for good
(`kill -9`, power loss) leaves that file behind; `remove_stale_temps` removes
the ones whose writer process is gone (or, in this process, that no write is using),
so files of a write still in progress, and files that are not minichainer's, are never
touched.  Names without the `mc-<pid>` part (`.<name>.<8 characters>.tmp`, and the
doubled `..<name>.<8>.tmp.<8>.tmp`) were written by earlier minichainer versions and
are recognized as well.

Within one process, a temporary file is registered while its write is running
(`is_active_temp`), so `save_npz` given such a path writes into it directly
instead of adding a second temporary file of its own.
"""
import functools
import os
import re
import tempfile
import threading

if os.name == 'nt':  # pragma: no cover - Windows only
    import ctypes

_MARK = 'mc-'
_RANDOM = r'[a-z0-9_]{8}'
_NEW = re.compile(r'^\.(?P<name>.+)\.' + _MARK + r'(?P<pid>[0-9]+)-' + _RANDOM
                  + r'(?P<suffix>\.tmp(?:\.[A-Za-z0-9]+)?)$')
_OLD = re.compile(r'^\.(?P<name>.+)\.' + _RANDOM + r'\.tmp$')

_lock = threading.Lock()
_active = set()


@functools.lru_cache(maxsize=None)
def default_file_mode():
    """The mode of a file created normally in this process: `0o666 & ~umask`.

    `mkstemp` creates 0600 files; finished files get this mode instead.  The umask is
    read once (reading it means setting it), as in earlier versions.
    """
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def mkstemp(directory, name, suffix='.tmp'):
    """Create the temporary file of a write of `directory/name`; return `(fd, path)`.

    The file is registered as in use by this process until `release`; its mode
    is that of a normally created file.
    """
    prefix = '.{}.{}{}-'.format(name, _MARK, os.getpid())
    fd, path = tempfile.mkstemp(prefix=prefix, suffix=suffix, dir=directory)
    try:
        os.fchmod(fd, default_file_mode())
    except (AttributeError, OSError):
        pass
    with _lock:
        _active.add(os.path.abspath(path))
    return fd, path


def release(path):
    """Mark the temporary file `path` as no longer in use by this process."""
    with _lock:
        _active.discard(os.path.abspath(path))


def is_active_temp(path):
    """True when `path` is the temporary file of a write running in this process."""
    try:
        key = os.path.abspath(os.fsdecode(os.fspath(path)))
    except TypeError:
        return False
    with _lock:
        return key in _active


def fsync_path(path):
    """Flush the file at `path` to disk (best effort)."""
    try:
        fd = os.open(path, os.O_RDWR | getattr(os, 'O_BINARY', 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def write_atomically(directory, name, write, prefix=None, suffix='.tmp', fsync=False,
                     makedirs=True, commit=None):
    """Create `directory/name` so that readers never see a partial file.

    `write(fd, tmp_path)` fills a temporary file in `directory` (created if missing)
    and must close `fd`; with `fsync` the file is flushed to disk, then it replaces
    `directory/name` with `os.replace`.  On any error the temporary file is removed
    and the error re-raised.  `prefix` (default `name`) and `suffix` name the
    temporary file; `makedirs` creates a missing `directory`.  `commit(tmp_path,
    final_path)`, when given, does the rename instead (under a lock, or only when
    `final_path` is still missing, for example); a temporary file it leaves is removed.
    """
    if makedirs:
        os.makedirs(directory, exist_ok=True)
    fd, tmp = mkstemp(directory, name if prefix is None else prefix, suffix=suffix)
    try:
        write(fd, tmp)
        if fsync:
            fsync_path(tmp)
        if commit is None:
            os.replace(tmp, os.path.join(directory, name))
        else:
            commit(tmp, os.path.join(directory, name))
            if os.path.lexists(tmp):
                os.remove(tmp)
    except BaseException:
        try:
            os.remove(tmp)
        except OSError:
            pass
        raise
    finally:
        release(tmp)


def write_file(path, write, fsync=True):
    """Create the file `path` atomically with `write(target_path)`.

    `write` creates the file at the path it is given: a fresh temporary file next to
    `path` (flushed to disk when `fsync`, then renamed onto `path`), or `path`
    itself when `path` already is the temporary file of a write running in this
    process (a snapshot writer calling `save_npz(tmp_path, ...)`): that caller
    renames it, and no second temporary file appears.  The folder must exist.
    """
    path = os.fsdecode(os.fspath(path))
    if is_active_temp(path):
        write(path)
        return

    def write_fd(fd, tmp_path):
        os.close(fd)
        write(tmp_path)

    directory, name = os.path.split(os.path.abspath(path))
    write_atomically(directory, name, write_fd, fsync=fsync, makedirs=False)


def write_text(path, text):
    """Write the string `text` to `path` atomically (its folder is created)."""
    def write(fd, tmp_path):
        with os.fdopen(fd, 'w') as f:
            f.write(text)

    directory, name = os.path.split(path)
    write_atomically(directory or '.', name, write)


def parse_temp_name(filename):
    """Return `(target_name, pid)` if `filename` is a temporary file name of
    minichainer's (`pid` is None for names of earlier versions), else None."""
    m = _NEW.match(filename)
    if m is not None:
        return m.group('name'), int(m.group('pid'))
    m = _OLD.match(filename)
    if m is None:
        return None
    name = m.group('name')
    inner = _OLD.match(name) if name.startswith('.') else None
    if inner is not None:  # ``..<name>.<8>.tmp.<8>.tmp``: save_npz inside a writer
        name = inner.group('name')
    return name, None


def pid_alive(pid):
    """Whether a process with id `pid` exists on this machine (an unreaped zombie
    counts as alive).  The process is neither signalled nor otherwise affected."""
    if pid <= 0:
        return False
    if os.name == 'nt':  # there os.kill would terminate the process
        return _pid_alive_windows(pid)
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # e.g. PermissionError: it exists but belongs to another user
        return True
    return True


def _pid_alive_windows(pid):  # pragma: no cover - Windows only
    kernel32 = ctypes.windll.kernel32
    handle = kernel32.OpenProcess(0x1000, False, pid)  # QUERY_LIMITED_INFORMATION
    if not handle:
        return False
    try:
        code = ctypes.c_ulong()
        if not kernel32.GetExitCodeProcess(handle, ctypes.byref(code)):
            return True
        return code.value == 259  # STILL_ACTIVE
    finally:
        kernel32.CloseHandle(handle)


def _is_stale(directory, filename, pid):
    if pid is None:
        return True  # an earlier version's name: no writer of today uses it
    if pid == os.getpid():
        return not is_active_temp(os.path.join(directory, filename))
    return not pid_alive(pid)


def remove_stale_temps(directory, target_matches=None):
    """Remove the temporary files of interrupted writes in `directory`.

    Only minichainer's temporary names are considered (see the module docstring), and
    only those whose writing process is gone or, in this process, that no write is
    using.  `target_matches(target_name)` restricts the removal to the temporaries of
    some destination names (e.g. one snapshot file name pattern); without it only names
    carrying the writer's pid are considered.  Returns the removed names.
    """
    try:
        names = os.listdir(directory)
    except OSError:
        return []
    removed = []
    for filename in names:
        if not filename.startswith('.'):
            continue
        parsed = parse_temp_name(filename)
        if parsed is None:
            continue
        target, pid = parsed
        if target_matches is None:
            if pid is None:
                continue  # earlier versions' names are only matched with a pattern
        elif not target_matches(target):
            continue
        if not _is_stale(directory, filename, pid):
            continue
        path = os.path.join(directory, filename)
        try:
            if os.path.isfile(path) and not os.path.islink(path):
                os.remove(path)
                removed.append(filename)
        except OSError:
            pass
    return removed
