"""HDF5 serialization (`chainer.serializers.hdf5`); needs the optional h5py package.

The hierarchy maps to HDF5 groups (`predictor/l1/W` is dataset `W` in group
`predictor/l1`) and None to an empty dataset, as in Chainer. h5py is imported only
when these functions are used; without it they raise an error that is both an
`ImportError` (naming `pip install minichainer[hdf5]`) and a `RuntimeError` (what
Chainer raises). `_available` tells whether h5py can be imported now (read when it is
read: a program or test that sets `sys.modules['h5py'] = None` sees False). Differences from
Chainer: `save_hdf5` to a path writes a temporary file and renames it into place;
strings are stored as UTF-8 bytes.
"""
import importlib.util
import os
import sys

import numpy

from minichainer import serializer
from minichainer.serializers import _arrays
from minichainer.utils import atomic_write


def _h5py_available():
    # checked without importing h5py (slow); sys.modules['h5py'] = None means "absent"
    if 'h5py' in sys.modules:
        return sys.modules['h5py'] is not None
    try:
        return importlib.util.find_spec('h5py') is not None
    except (ImportError, ValueError):
        return False


def __getattr__(name):
    # Chainer's `_available`, answered when it is read
    if name == '_available':
        return _h5py_available()
    raise AttributeError('module {!r} has no attribute {!r}'.format(__name__, name))


class H5pyNotAvailableError(ImportError, RuntimeError):
    """h5py is missing. An ImportError, and a RuntimeError as Chainer raises."""


def _import_h5py():
    try:
        import h5py
    except ImportError:
        raise H5pyNotAvailableError(
            'HDF5 serialization needs the h5py package: pip install minichainer[hdf5]'
        ) from None
    return h5py


def _check_available():
    """Raise `H5pyNotAvailableError` when h5py cannot be imported."""
    _import_h5py()


class HDF5Serializer(serializer.Serializer):
    """Serializer writing into an HDF5 group.

    Args:
        group (h5py.Group): The group (or file) to write into.
        compression (int): gzip level for datasets with more than one element.
    """

    def __init__(self, group, compression=4):
        self._h5py = _import_h5py()
        self.group = group
        self.compression = compression

    def __getitem__(self, key):
        name = self.group.name.rstrip('/') + '/' + key.strip('/')
        return HDF5Serializer(self.group.require_group(name), self.compression)

    def __call__(self, key, value):
        h5py = self._h5py
        if value is None:
            # None is stored as an empty dataset (h5py.Empty, new in h5py 2.7)
            if h5py.version.version_tuple < (2, 7, 0):
                raise RuntimeError('h5py>=2.7.0 is required to serialize None.')
            arr = h5py.Empty('f')
            compression = None
        else:
            arr = numpy.asarray(_arrays.to_host(value))  # a CuPy array: one copy
            if arr.dtype.kind == 'U':
                arr = numpy.char.encode(arr, 'utf-8')
            compression = None if arr.size <= 1 else self.compression
        self.group.create_dataset(key, data=arr, compression=compression)
        return value


def save_hdf5(filename, obj, compression=4):
    """Save an object to an HDF5 file (written to a temporary file, then renamed).

    Args:
        filename (str or path-like): Destination file.
        obj: Object with a `serialize` method, or a dict of arrays saved as is.
        compression (int): gzip level for datasets with more than one element.

    Raises:
        ImportError: h5py is not installed.
    """
    h5py = _import_h5py()
    filename = os.fsdecode(os.fspath(filename))

    def write(tmp_path):
        with h5py.File(tmp_path, 'w') as f:
            if isinstance(obj, dict):
                for key, value in obj.items():
                    arr = numpy.asarray(_arrays.to_host(value))
                    f.create_dataset('/' + key.lstrip('/'), data=arr,
                                     compression=None if arr.size <= 1 else compression)
            else:
                HDF5Serializer(f, compression=compression).save(obj)

    atomic_write.write_file(filename, write)


class HDF5Deserializer(serializer.Deserializer):
    """Deserializer reading from an HDF5 group written by
    [`save_hdf5`][minichainer.serializers.hdf5.save_hdf5].

    Args:
        group (h5py.Group): The group (or file) to read from.
        strict (bool): Raise `KeyError` for a missing key (`ValueError` for a
            missing group, as Chainer); otherwise leave the value unchanged.
    """

    def __init__(self, group, strict=True):
        self._h5py = _import_h5py()
        self.group = group
        self.strict = strict

    def __getitem__(self, key):
        if self.group is None:  # below a missing group
            child = HDF5Deserializer(None, strict=self.strict)
            child._missing = self._missing
            return child
        name = self.group.name.rstrip('/') + '/' + key.strip('/')
        try:
            group = self.group.require_group(name)
        except (ValueError, KeyError):  # missing group in a file opened read-only
            group = None
        child = HDF5Deserializer(group, strict=self.strict)
        if group is None:
            child._missing = name
        return child

    _missing = None

    def __call__(self, key, value):
        if self.group is None:
            if not self.strict:
                return value
            raise ValueError(
                'load_hdf5: inexistent group {!r} is specified (needed for {!r})'.format(
                    self._missing, key))
        if key not in self.group:
            if not self.strict:
                return value
            raise KeyError('load_hdf5: key {!r} not found under {!r}'.format(
                key, self.group.name))
        dataset = self.group[key]
        if dataset.shape is None:  # h5py.Empty stands for None
            return None
        data = dataset[()]
        if value is None:
            return numpy.asarray(data)
        if isinstance(value, numpy.ndarray):
            data = _arrays.array_for('load_hdf5', repr(dataset.name), data, value)
            numpy.copyto(value, data)
            return value
        if hasattr(value, 'shape') and hasattr(value, 'dtype') \
                and not isinstance(value, numpy.generic):  # a device (CuPy) array
            data = _arrays.array_for('load_hdf5', repr(dataset.name), data, value)
            _arrays.load_into_device_array(value, data)
            return value
        if isinstance(value, str) and isinstance(data, bytes):
            return data.decode('utf-8')
        return type(value)(numpy.asarray(data))


def load_hdf5(filename, obj):
    """Load an object from an HDF5 file written by
    [`save_hdf5`][minichainer.serializers.hdf5.save_hdf5] or Chainer.

    Raises:
        ImportError: h5py is not installed.
        KeyError: a value is missing from the file.
        ValueError: a stored array's shape differs from the destination's.
    """
    h5py = _import_h5py()
    with h5py.File(filename, 'r') as f:
        HDF5Deserializer(f).load(obj)
