"""Helpers shared by the standard dataset loaders: mirrors, npz caches, corrupt files."""
import os
import zipfile

import numpy

from minichainer.dataset import download


def load_npz(path):
    """Load every array of an npz file into a dict (`allow_pickle=False`)."""
    with numpy.load(path, allow_pickle=False) as f:
        return {key: f[key] for key in f.files}


def retrieve_npz(path, creator):
    """Load the npz cache at `path`, building it with `creator` when missing.

    A cache file that cannot be read (e.g. truncated by a crash of an older tool) is
    removed and rebuilt once.
    """
    try:
        return download.cache_or_load_file(path, creator, load_npz)
    except (OSError, ValueError, EOFError, zipfile.BadZipFile, KeyError) as e:
        if isinstance(e, download.DownloadError) or not os.path.exists(path):
            raise
        os.remove(path)
        return download.cache_or_load_file(path, creator, load_npz)


def download_any(what, urls, md5=None):
    """Download the first of `urls` (mirrors of one file) that succeeds."""
    errors = []
    for url in urls:
        try:
            return url, download.cached_download(url, md5=md5)
        except download.DownloadError as e:
            errors.append(str(e))
    raise download.DownloadError(
        '{}: could not download the file from any source:\n  {}'.format(
            what, '\n  '.join(errors)))


def corrupt(what, path, url, error):
    """Remove a cached download that failed to parse and return a clear error."""
    try:
        os.remove(path)
    except OSError:
        pass
    return RuntimeError(
        '{}: the file downloaded from {} is corrupt ({}); it was removed from the '
        'cache ({}), call again to download it again'.format(what, url, error, path))
