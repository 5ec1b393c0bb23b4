import hashlib
import os
import socket

import numpy
import pytest

from minichainer.dataset import cache_or_load_file
from minichainer.dataset import cached_download
from minichainer.dataset import download
from minichainer.dataset import get_dataset_directory
from minichainer.dataset import get_dataset_root
from minichainer.dataset import set_dataset_root


def _cache_files(root):
    cache = root / '_dl_cache'
    return sorted(p.name for p in cache.iterdir() if p.name != '_dl_lock')


def test_dataset_root_and_directory(tmp_path, monkeypatch):
    monkeypatch.setattr(download, '_dataset_root', download._dataset_root)
    set_dataset_root(tmp_path / 'r')
    assert get_dataset_root() == str(tmp_path / 'r')
    path = get_dataset_directory('pfnet/chainer/x')
    assert os.path.isdir(path) and path == os.path.join(str(tmp_path / 'r'), 'pfnet/chainer/x')
    assert not os.path.exists(get_dataset_directory('other', create_directory=False))


def test_cached_download_downloads_once(http_server, dataset_root, capsys):
    http_server.files['/a.bin'] = b'hello world'
    url = http_server.url + '/a.bin'
    md5 = hashlib.md5(b'hello world').hexdigest()
    path = cached_download(url, md5=md5, size=11)
    with open(path, 'rb') as f:
        assert f.read() == b'hello world'
    assert os.path.basename(path) == hashlib.md5(url.encode()).hexdigest()
    assert cached_download(url) == path
    assert cached_download(url, md5=md5) == path
    assert http_server.requests == ['/a.bin']
    assert 'Downloading from' in capsys.readouterr().out


def test_checksum_mismatch_leaves_no_cache_file(http_server, dataset_root):
    http_server.files['/b.bin'] = b'corrupted'
    with pytest.raises(download.DownloadError, match='MD5'):
        cached_download(http_server.url + '/b.bin', md5='0' * 32)
    assert _cache_files(dataset_root) == []


def test_truncated_download_leaves_no_cache_file(http_server, dataset_root):
    http_server.files['/c.bin'] = b'short'
    http_server.truncated['/c.bin'] = 100
    with pytest.raises(download.DownloadError):
        cached_download(http_server.url + '/c.bin')
    assert _cache_files(dataset_root) == []


def test_corrupt_cache_entry_is_replaced(http_server, dataset_root):
    http_server.files['/d.bin'] = b'good data'
    url = http_server.url + '/d.bin'
    path = cached_download(url)
    with open(path, 'wb') as f:
        f.write(b'bad')
    md5 = hashlib.md5(b'good data').hexdigest()
    with open(cached_download(url, md5=md5), 'rb') as f:
        assert f.read() == b'good data'


def test_offline_error_says_where_to_place_the_file(dataset_root):
    sock = socket.socket()
    sock.bind(('127.0.0.1', 0))
    port = sock.getsockname()[1]
    sock.close()  # nothing listens there
    url = 'http://127.0.0.1:{}/e.bin'.format(port)
    with pytest.raises(download.DownloadError) as info:
        cached_download(url)
    expected = os.path.join(str(dataset_root), '_dl_cache', hashlib.md5(url.encode()).hexdigest())
    assert expected in str(info.value) and url in str(info.value)
    assert isinstance(info.value, OSError)


def test_cache_or_load_file(tmp_path, dataset_root):
    path = str(tmp_path / 'sub' / 'data.npz')
    calls = []

    def creator(p):
        calls.append(p)
        assert p != path and not os.path.exists(p)
        numpy.savez(p, x=numpy.arange(3))
        return 'created'

    def loader(p):
        with numpy.load(p) as f:
            return f['x'].tolist()

    assert cache_or_load_file(path, creator, loader) == 'created'
    assert cache_or_load_file(path, creator, loader) == [0, 1, 2]
    assert len(calls) == 1
    assert os.listdir(tmp_path / 'sub') == ['data.npz']
    assert os.path.exists(os.path.join(str(dataset_root), '_create_lock'))


def test_cache_or_load_file_failing_creator_leaves_nothing(tmp_path, dataset_root):
    work = tmp_path / 'work'
    work.mkdir()
    path = str(work / 'data.npz')

    def creator(p):
        with open(p, 'w') as f:
            f.write('partial')
        raise RuntimeError('creator failed')

    with pytest.raises(RuntimeError, match='creator failed'):
        cache_or_load_file(path, creator, None)
    assert os.listdir(work) == []  # neither the file nor the temporary directory


def test_cache_or_load_file_keeps_a_file_made_meanwhile(tmp_path, dataset_root):
    # Another process finishes first: its file stays, ours is dropped; the creator
    # wrote to one of atomic_write's recognizable temporary names.
    from minichainer.utils import atomic_write
    (tmp_path / 'work').mkdir()
    path = tmp_path / 'work' / 'data.npz'
    seen = []

    def creator(p):
        seen.append(atomic_write.parse_temp_name(os.path.basename(p)))
        numpy.savez(p, x=numpy.zeros(2))
        path.write_bytes(b'the other process')
        return 'ours'

    assert cache_or_load_file(str(path), creator, None) == 'ours'
    assert path.read_bytes() == b'the other process'
    assert os.listdir(tmp_path / 'work') == ['data.npz']
    assert seen[0][0] == 'data.npz' and seen[0][1] == os.getpid()


def test_cache_or_load_file_with_unusable_root(tmp_path, monkeypatch):
    not_a_dir = tmp_path / 'file'
    not_a_dir.write_text('')
    monkeypatch.setattr(download, '_dataset_root', str(not_a_dir))
    with pytest.raises(RuntimeError, match='dataset root'):
        cache_or_load_file(str(tmp_path / 'x' / 'y.npz'), None, None)


def test_urlretrieve_can_be_mocked_through_six(dataset_root, monkeypatch):
    six = pytest.importorskip('six')
    calls = []

    def fake(url, path):
        calls.append((url, path))
        with open(path, 'w') as f:
            f.write('test')

    monkeypatch.setattr(six.moves.urllib.request, 'urlretrieve', fake)
    path = cached_download('https://example.com')
    assert calls[0][0] == 'https://example.com' and open(path).read() == 'test'
    assert not os.path.exists(calls[0][1])
