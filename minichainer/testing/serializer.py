"""Round-trip serialization in tests (`chainer.testing.save_and_load*`)."""
import os
import shutil
import tempfile

from minichainer import serializers


def save_and_load(src, dst, filename, saver, loader):
    """Save `src` with `saver(path, src)` and load into `dst` with `loader(path, dst)`.

    The file lives in a temporary directory removed afterwards.
    """
    tempdir = tempfile.mkdtemp()
    try:
        path = os.path.join(tempdir, filename)
        saver(path, src)
        loader(path, dst)
    finally:
        shutil.rmtree(tempdir, ignore_errors=True)


def save_and_load_npz(src, dst):
    """Save `src` to an NPZ file and load it into `dst`."""
    save_and_load(src, dst, 'tmp.npz', serializers.save_npz,
                  serializers.load_npz)


def save_and_load_hdf5(src, dst):
    """Save `src` to an HDF5 file and load it into `dst` (needs h5py)."""
    save_and_load(src, dst, 'tmp.h5', serializers.save_hdf5,
                  serializers.load_hdf5)
