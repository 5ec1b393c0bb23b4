"""load_npz on files that are not what they should be: every error names the file and,
for an entry, the key; none suggests loading pickles."""
import gc
import io
import warnings
import zipfile

import numpy
import pytest

import minichainer.links as L
from minichainer import serializers


def _model_file(tmp_path):
    path = str(tmp_path / 'model.npz')
    serializers.save_npz(path, L.Linear(3, 2))
    return path


def _no_pickle_hint(info):
    assert 'allow_pickle' not in str(info.value)


@pytest.mark.parametrize('content,what', [
    (b'hello world\n', "not a zip archive: it starts with b'hello '"),
    (b'', 'it is empty'),
    (b'\x80\x04\x95 pickle', 'not a zip archive'),
])
def test_not_an_npz_file(tmp_path, content, what):
    path = tmp_path / 'not.npz'
    path.write_bytes(content)
    with pytest.raises(ValueError) as info:
        serializers.load_npz(str(path), L.Linear(3, 2))
    assert str(path) in str(info.value) and 'is not an NPZ archive' in str(info.value)
    assert what in str(info.value)
    _no_pickle_hint(info)


def test_npy_file(tmp_path):
    path = str(tmp_path / 'w.npy')
    numpy.save(path, numpy.zeros(3))
    with pytest.raises(ValueError, match=r'w\.npy.*single \.npy array'):
        serializers.load_npz(path, L.Linear(3, 2))


def test_file_object_that_is_not_an_npz():
    with pytest.raises(ValueError, match='is not an NPZ archive'):
        serializers.load_npz(io.BytesIO(b'garbage bytes'), L.Linear(3, 2))


def test_truncated_archive(tmp_path):
    path = _model_file(tmp_path)
    with open(path, 'rb') as f:
        head = f.read(80)
    truncated = tmp_path / 'truncated.npz'
    truncated.write_bytes(head)
    with pytest.raises(ValueError, match=r'truncated\.npz.*not a readable NPZ archive'):
        serializers.load_npz(str(truncated), L.Linear(3, 2))


def test_a_truncated_archive_leaves_no_file_open(tmp_path):
    # numpy.load keeps a file it opened itself once its NpzFile has taken it over, even
    # when the archive then turns out truncated; load_npz opens (and closes) the file.
    path = _model_file(tmp_path)
    with open(path, 'rb') as f:
        data = f.read()
    truncated = tmp_path / 'half.npz'
    truncated.write_bytes(data[:len(data) // 2])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always', ResourceWarning)
        with pytest.raises(ValueError, match='not a readable NPZ archive'):
            serializers.load_npz(str(truncated), L.Linear(3, 2))
        gc.collect()
    assert not [w for w in caught if issubclass(w.category, ResourceWarning)]


def test_a_loaded_archive_and_its_file_are_closed(tmp_path):
    path = _model_file(tmp_path)
    opened = []
    real_load = numpy.load

    def spy(file, *args, **kwargs):
        opened.append(file)
        result = real_load(file, *args, **kwargs)
        opened.append(result)
        return result

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(numpy, 'load', spy)
        serializers.load_npz(path, L.Linear(3, 2))
    handle, archive = opened
    assert handle.closed and archive.zip is None


@pytest.mark.parametrize('stored', [
    numpy.ones((2, 3), numpy.complex64), numpy.full((2, 3), 'ab'),
])
def test_incompatible_dtype_names_file_and_key(tmp_path, stored):
    path = str(tmp_path / 'bad_dtype.npz')
    numpy.savez(path, W=stored, b=numpy.zeros(2, numpy.float32))
    link = L.Linear(3, 2)
    before = link.W.array.copy()
    with pytest.raises(TypeError) as info:
        serializers.load_npz(path, link)
    message = str(info.value)
    assert "'W'" in message and 'bad_dtype.npz' in message
    assert str(stored.dtype) in message and 'float32' in message
    numpy.testing.assert_array_equal(link.W.array, before)  # left unchanged


def _corrupt_member(path, member):
    """Flip bytes inside the compressed data of ``member`` (found via the local
    header, whose extra field may differ from the central directory's)."""
    with zipfile.ZipFile(path) as z:
        info = z.getinfo(member)
    with open(path, 'rb') as f:
        raw = bytearray(f.read())
    offset = info.header_offset
    name_len = int.from_bytes(raw[offset + 26:offset + 28], 'little')
    extra_len = int.from_bytes(raw[offset + 28:offset + 30], 'little')
    start = offset + 30 + name_len + extra_len
    for i in range(start + info.compress_size // 2, start + info.compress_size // 2 + 4):
        raw[i] ^= 0x5A
    with open(path, 'wb') as f:
        f.write(bytes(raw))


@pytest.mark.parametrize('save', [numpy.savez_compressed, numpy.savez])
def test_corrupted_member_names_file_and_key(tmp_path, save):
    # Compressed: a zlib error or a bad CRC; stored: a bad CRC (numpy alone would load
    # the damaged values silently, as it never reads a member to its end).
    path = str(tmp_path / 'corrupt.npz')
    save(path, W=numpy.arange(600, dtype=numpy.float32).reshape(2, 300),
         b=numpy.zeros(2, numpy.float32))
    _corrupt_member(path, 'W.npy')
    link = L.Linear(300, 2)
    with pytest.raises(ValueError) as info:
        serializers.load_npz(path, link)
    message = str(info.value)
    assert "'W'" in message and 'corrupt.npz' in message
    assert 'corrupted or truncated' in message
    _no_pickle_hint(info)


def test_pickled_entry_message_does_not_suggest_allow_pickle(tmp_path):
    path = str(tmp_path / 'obj.npz')
    numpy.savez(path, W=numpy.array([{'a': 1}], dtype=object),
                b=numpy.zeros(2, numpy.float32))
    with pytest.raises(ValueError) as info:
        serializers.load_npz(path, L.Linear(3, 2))
    assert "'W'" in str(info.value) and 'obj.npz' in str(info.value)
    _no_pickle_hint(info)


def test_missing_key_names_the_file(tmp_path):
    path = str(tmp_path / 'partial.npz')
    numpy.savez(path, W=numpy.zeros((2, 3), numpy.float32))
    with pytest.raises(KeyError, match=r"'b'.*partial\.npz"):
        serializers.load_npz(path, L.Linear(3, 2))
