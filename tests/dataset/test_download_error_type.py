"""Download failures are URLErrors, as the errors Chainer's downloader lets through."""
import urllib.error

import pytest

from minichainer.dataset import download


def test_download_error_is_url_error(tmp_path):
    orig = download.get_dataset_root()
    download.set_dataset_root(str(tmp_path))
    try:
        with pytest.raises(urllib.error.URLError) as info:
            download.cached_download('file:///nonexistent-dir-for-test/x.bin')
    finally:
        download.set_dataset_root(orig)
    assert isinstance(info.value, download.DownloadError)
    assert isinstance(info.value, OSError)
    assert str(info.value).startswith('cached_download: could not download')
