"""Download and cache dataset files (`chainer.dataset.download`).

Files live under the dataset root: `$MINICHAINER_DATASET_ROOT`, else
`$CHAINER_DATASET_ROOT`, else `~/.chainer/dataset` (the same layout as Chainer, so
caches made by Chainer are reused). Downloads go to a temporary file in the cache
directory and are moved into place atomically once complete and verified, under a
file lock, so concurrent processes and interrupted downloads never leave a
half-written cache file.
"""
import contextlib
import hashlib
import os
import sys
import urllib.error

from minichainer.utils import atomic_write

try:
    import fcntl
    msvcrt = None
except ImportError:  # Windows
    fcntl = None
    import msvcrt

_dataset_root = os.environ.get(
    'MINICHAINER_DATASET_ROOT',
    os.environ.get('CHAINER_DATASET_ROOT', os.path.expanduser(os.path.join(
        '~', '.chainer', 'dataset'))))

_CHUNK = 1 << 20


class DownloadError(urllib.error.URLError):
    """A file could not be downloaded, or the download failed verification.

    An OSError, and a `urllib.error.URLError` (what Chainer's downloader lets
    through), so `except URLError` written for Chainer still catches it.
    """

    def __str__(self):
        return str(self.reason)


def get_dataset_root():
    """Return the root directory where datasets are downloaded and cached."""
    return _dataset_root


def set_dataset_root(path):
    """Set the root directory where datasets are downloaded and cached.

    It takes precedence over the `MINICHAINER_DATASET_ROOT` environment variable.
    """
    global _dataset_root
    _dataset_root = os.fspath(path)


def get_dataset_directory(dataset_name, create_directory=True):
    """Return `<dataset root>/<dataset_name>`, creating it unless told not to.

    `dataset_name` may contain slashes, which are treated as path separators.
    """
    path = os.path.join(_dataset_root, dataset_name)
    if create_directory:
        os.makedirs(path, exist_ok=True)
    return path


@contextlib.contextmanager
def _file_lock(lock_path):
    """Exclusive inter-process lock on `lock_path` (fcntl on POSIX, msvcrt on Windows)."""
    fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        if fcntl is None:
            msvcrt.locking(fd, msvcrt.LK_LOCK, 1)
            try:
                yield
            finally:
                os.lseek(fd, 0, os.SEEK_SET)
                msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
        else:
            fcntl.flock(fd, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


def _file_md5(path):
    digest = hashlib.md5()
    with open(path, 'rb') as f:
        for block in iter(lambda: f.read(_CHUNK), b''):
            digest.update(block)
    return digest.hexdigest()


def _check_file(path, url, md5, size):
    """Raise DownloadError when `path` does not have the expected size/checksum."""
    if size is not None:
        actual = os.path.getsize(path)
        if actual != size:
            raise DownloadError(
                'cached_download: {} has {} bytes but {} were expected (truncated or '
                'corrupt download)'.format(url, actual, size))
    if md5 is not None:
        actual = _file_md5(path)
        if actual != md5:
            raise DownloadError(
                'cached_download: {} has MD5 {} but {} was expected (corrupt '
                'download)'.format(url, actual, md5))


def _urlretrieve():
    # Looked up at call time: tests (Chainer's included) mock
    # ``six.moves.urllib.request.urlretrieve``, the function Chainer calls.
    six = sys.modules.get('six')
    if six is not None:
        try:
            return six.moves.urllib.request.urlretrieve
        except AttributeError:
            pass
    # Not a cycle: urllib.request (with http.client and ssl) takes ~40 ms to import,
    # so it is imported on the first download rather than with minichainer.dataset.
    import urllib.request
    return urllib.request.urlretrieve


def _fetch(url, path):
    """Download `url` to `path`; a short read raises ContentTooShortError."""
    _urlretrieve()(url, path)


def cached_download(url, md5=None, size=None):
    """Download a file once and return the path of its cached copy.

    The cache is `<dataset root>/_dl_cache/<md5 of url>`. A new download is written
    to a temporary file (with `urllib.request.urlretrieve`, which checks the
    Content-Length header), checked against the optional `md5`/`size` and only
    then renamed into place.

    Args:
        url (str): URL to download.
        md5 (str): Expected MD5 hex digest (minichainer extension), or None.
        size (int): Expected size in bytes (minichainer extension), or None.

    Returns:
        str: Path to the cached file.

    Raises:
        DownloadError: The download failed (e.g. offline) or was truncated/corrupt;
            the message says where to place the file by hand.
    """
    cache_root = os.path.join(_dataset_root, '_dl_cache')
    os.makedirs(cache_root, exist_ok=True)
    lock_path = os.path.join(cache_root, '_dl_lock')
    cache_path = os.path.join(cache_root, hashlib.md5(url.encode('utf-8')).hexdigest())

    with _file_lock(lock_path):
        if os.path.exists(cache_path):
            if md5 is None and size is None:
                return cache_path
            try:
                _check_file(cache_path, url, md5, size)
                return cache_path
            except DownloadError:
                os.remove(cache_path)  # corrupt cache entry: download again

    def download(fd, temp_path):
        os.close(fd)
        print('Downloading from {}...'.format(url), file=sys.stdout)
        try:
            _fetch(url, temp_path)
        except urllib.error.ContentTooShortError as e:
            raise DownloadError(
                'cached_download: the download of {} was truncated ({})'.format(
                    url, e)) from e
        except (urllib.error.URLError, OSError, ValueError) as e:
            raise DownloadError(
                'cached_download: could not download {} ({}). If this machine is '
                'offline, fetch the file elsewhere and place it at {}'.format(
                    url, getattr(e, 'reason', e), cache_path)) from e
        _check_file(temp_path, url, md5, size)

    def commit(temp_path, final_path):
        with _file_lock(lock_path):
            os.replace(temp_path, final_path)

    atomic_write.write_atomically(cache_root, os.path.basename(cache_path), download,
                                  makedirs=False, commit=commit)
    return cache_path


def cache_or_load_file(path, creator, loader):
    """Load `path` with `loader`, or create it with `creator` if missing.

    `creator(temp_path)` writes the file to a temporary path in the same directory
    and returns the content; the file is then renamed to `path` atomically (under a
    lock in the dataset root, keeping a file another process created meanwhile).

    Raises:
        RuntimeError: The dataset root directory cannot be created.

    Returns:
        What `creator` or `loader` returned.
    """
    if os.path.exists(path):
        return loader(path)

    directory = os.path.dirname(os.path.abspath(path))
    try:
        os.makedirs(_dataset_root, exist_ok=True)
    except OSError:
        raise RuntimeError(
            'cache_or_load_file: cannot create the dataset root directory {}'.format(
                _dataset_root)) from None
    lock_path = os.path.join(_dataset_root, '_create_lock')
    name = os.path.basename(path)
    ext = os.path.splitext(name)[1]
    created = []

    def create(fd, temp_path):
        # The creator makes the file itself (numpy.savez adds '.npz' to a name without
        # it, hence the temporary name keeps the extension).
        os.close(fd)
        os.remove(temp_path)
        created.append(creator(temp_path))

    def commit(temp_path, final_path):
        with _file_lock(lock_path):
            if not os.path.exists(final_path) and os.path.exists(temp_path):
                os.replace(temp_path, final_path)

    atomic_write.write_atomically(
        directory, name, create, commit=commit,
        suffix='.tmp' + ext if ext[1:].isalnum() else '.tmp')
    return created[0]
