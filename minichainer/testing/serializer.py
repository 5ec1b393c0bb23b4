"""Round-trip serialization in tests (`chainer.testing.save_and_load*`)."""
import os
import shutil
import tempfile

import minichainer


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
    save_and_load(src, dst, 'tmp.npz', minichainer.serializers.save_npz,
                  minichainer.serializers.load_npz)


def save_and_load_hdf5(src, dst):
    """Save `src` to an HDF5 file and load it into `dst` (needs h5py)."""
    save_and_load(src, dst, 'tmp.h5', minichainer.serializers.save_hdf5,
                  minichainer.serializers.load_hdf5)
