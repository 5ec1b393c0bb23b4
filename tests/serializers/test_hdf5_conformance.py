"""HDF5 serializer behaviours checked by Chainer 7.8.1's own test suite."""
import pytest

h5py = pytest.importorskip('h5py')

from minichainer.serializers import hdf5  # noqa: E402


def test_serialize_none_needs_h5py_2_7(tmp_path, monkeypatch):
    # Chainer raises RuntimeError when h5py is too old to store None (no h5py.Empty)
    monkeypatch.setattr(h5py.version, 'version_tuple', (2, 6, 0))
    with h5py.File(str(tmp_path / 'a.h5'), 'w') as f:
        with pytest.raises(RuntimeError, match='2.7'):
            hdf5.HDF5Serializer(f)('x', None)
