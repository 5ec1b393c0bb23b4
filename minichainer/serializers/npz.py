"""NPZ serialization (``chainer.serializers.npz``), file-compatible with Chainer 7.

The hierarchy of an object is flattened into ``path/to/value`` keys (``predictor/l1/W``,
``updater/optimizer:main/predictor/l1/W/m``, ...) exactly as Chainer does, and stored in
an ``.npz`` archive. ``None`` is stored as Chainer stores it: a 0-d object array holding
None (a tiny pickle inside the archive).

Deliberate differences from Chainer:

* Loading uses ``allow_pickle=False``. The only pickled entry accepted is Chainer's
  ``None`` marker, which is decoded by a restricted unpickler that can build nothing but a
  0-d object array; any other pickled entry raises ``ValueError``. Saving refuses object
  arrays other than None (Chainer would pickle them).
* ``save_npz`` to a path writes a temporary file in the same folder and renames it into
  place, so the destination is never half-written.
* ``load_npz`` leaves a link or an optimizer unchanged when loading fails (missing key,
  shape mismatch): their previous values are restored before the error propagates (a
  Trainer restores itself).
* A stored array whose shape differs from the destination array raises ``ValueError``
  (Chainer relied on ``numpy.copyto`` broadcasting).
* :class:`DictionarySerializer` stores copies of the arrays, so its ``target`` does not
  change when the model is trained further.
"""
import io
import os
import pickle
import zipfile

import numpy

from minichainer import serializer
from minichainer.serializers import _atomic

# The pickle that Chainer (NumPy 1.x) writes for ``numpy.asarray(None)``, protocol 3,
# referring to ``numpy.core.multiarray`` so that both NumPy 1.x and 2.x can read it.
_NONE_PICKLE = (
    b'\x80\x03cnumpy.core.multiarray\n_reconstruct\nq\x00cnumpy\nndarray\nq\x01K\x00'
    b'\x85q\x02C\x01bq\x03\x87q\x04Rq\x05(K\x01)cnumpy\ndtype\nq\x06X\x02\x00\x00\x00O8'
    b'q\x07\x89\x88\x87q\x08Rq\t(K\x03X\x01\x00\x00\x00|q\nNNNJ\xff\xff\xff\xffJ\xff\xff'
    b'\xff\xffK?tq\x0bb\x89]q\x0cNatq\rb.')


def _is_none_marker(value):
    return (isinstance(value, numpy.ndarray) and value.dtype == object
            and value.shape == () and value[()] is None)


class DictionarySerializer(serializer.Serializer):
    """Serializer that flattens an object hierarchy into a dictionary of arrays.

    It does not write files: feed :attr:`target` to :func:`save_npz` (or
    ``numpy.savez``). None values are stored as ``numpy.asarray(None)`` as in Chainer.

    Args:
        target (dict): Dictionary to fill; a new one when None.
        path (str): Base path of this serializer in the hierarchy.

    Attributes:
        target (dict): The dictionary of saved values.
    """

    def __init__(self, target=None, path=''):
        self.target = {} if target is None else target
        self.path = path

    def __getitem__(self, key):
        key = key.strip('/')
        return DictionarySerializer(self.target, self.path + key + '/')

    def __call__(self, key, value):
        key = key.lstrip('/')
        if value is None:
            stored = numpy.asarray(None)
        else:
            host = value
            if hasattr(host, '__cuda_array_interface__'):  # a CuPy array
                host = host.get()
            stored = numpy.array(host, copy=True)
        self.target[self.path + key] = stored
        return value


def serialize(obj):
    """Serialize ``obj`` into a new dictionary of arrays (keys as in an npz file)."""
    s = DictionarySerializer()
    s.save(obj)
    return s.target


def _check_storable(key, array):
    if array.dtype == object and not (array.shape == () and array[()] is None):
        raise TypeError(
            'save_npz: the value at {!r} is an object array (dtype=object); only numeric, '
            'bool and string values and None can be saved without pickle'.format(key))


def _write_entry(zf, key, array):
    with zf.open(key + '.npy', 'w', force_zip64=True) as f:
        if array.dtype == object:  # Chainer's None marker (checked before)
            numpy.lib.format.write_array_header_1_0(
                f, {'descr': '|O', 'fortran_order': False, 'shape': ()})
            f.write(_NONE_PICKLE)
        else:
            numpy.lib.format.write_array(f, array, allow_pickle=False)


def _write_npz(file, target, compression):
    arrays = [(key, numpy.asanyarray(value)) for key, value in target.items()]
    for key, array in arrays:  # fail before anything is written
        _check_storable(key, array)
    method = zipfile.ZIP_DEFLATED if compression else zipfile.ZIP_STORED
    with zipfile.ZipFile(file, mode='w', compression=method, allowZip64=True) as zf:
        for key, array in arrays:
            _write_entry(zf, key, array)


def _file_mode():
    return _atomic._default_file_mode()


def _write_to_path(path, write):
    """Call ``write(fileobj)`` on ``path`` so that it is never seen half-written.

    Normally a temporary file next to ``path`` is written, flushed to disk and renamed
    into place.  A ``path`` that is itself the temporary file of a running atomic write
    (a snapshot writer calling ``save_npz(tmp_path, ...)``) is written directly: the
    caller renames it, and no second temporary file appears.
    """
    path = os.fsdecode(os.fspath(path))
    if _atomic.is_active_temp(path):
        with open(path, 'wb') as f:
            write(f)
        return

    def write_fd(fd, tmp_path):
        with os.fdopen(fd, 'wb') as f:
            write(f)

    directory, name = os.path.split(os.path.abspath(path))
    _atomic.write_atomically(directory, name, write_fd, fsync=True, makedirs=False)


def save_npz(file, obj, compression=True):
    """Save an object (or a dict of arrays) to an NPZ file in Chainer's layout.

    Args:
        file (str, path-like or file-like): Destination. A path is written atomically
            (temporary file in the same folder, then ``os.replace``).
        obj: Object with a ``serialize`` method, or a dict of arrays saved as is.
        compression (bool): Compress the archive (``ZIP_DEFLATED``).

    Raises:
        TypeError: ``obj`` has no ``serialize`` method, or a value cannot be stored
            without pickle.
    """
    if isinstance(obj, dict):
        target = obj
    else:
        _check_serializable('save_npz', obj)
        s = DictionarySerializer()
        s.save(obj)
        target = s.target
    if isinstance(file, (str, bytes, os.PathLike)):
        _write_to_path(file, lambda f: _write_npz(f, target, compression))
    else:
        _write_npz(file, target, compression)


class _RestrictedUnpickler(pickle.Unpickler):
    """Unpickler that can only rebuild NumPy arrays (used for Chainer's None marker)."""

    def find_class(self, module, name):
        if name == '_reconstruct' and module in (
                'numpy.core.multiarray', 'numpy._core.multiarray'):
            return _RECONSTRUCT
        if module == 'numpy' and name == 'ndarray':
            return numpy.ndarray
        if module == 'numpy' and name == 'dtype':
            return numpy.dtype
        if module == '_codecs' and name == 'encode':
            import codecs
            return codecs.encode
        raise pickle.UnpicklingError(
            'load_npz: refusing to unpickle {}.{} (allow_pickle=False)'.format(
                module, name))


_RECONSTRUCT = numpy.ndarray.__reduce__(numpy.zeros(1))[0]


def _read_object_entry(npz, key):
    """Decode a pickled entry of an NpzFile; only Chainer's None marker is accepted."""
    raw = npz.zip.read(key + '.npy')
    fp = io.BytesIO(raw)
    version = numpy.lib.format.read_magic(fp)
    if version == (1, 0):
        shape, _, dtype = numpy.lib.format.read_array_header_1_0(fp)
    else:
        shape, _, dtype = numpy.lib.format.read_array_header_2_0(fp)
    if dtype == object and shape == ():
        try:
            value = _RestrictedUnpickler(fp).load()
        except Exception as e:
            raise ValueError(
                'load_npz: the entry {!r} is a pickled object that cannot be loaded '
                'safely (allow_pickle=False): {}'.format(key, e)) from None
        if _is_none_marker(value):
            return value
    raise ValueError(
        'load_npz: the entry {!r} is a pickled object array (dtype={}, shape={}); only '
        'None is accepted because pickles are not loaded (allow_pickle=False)'.format(
            key, dtype, shape))


def _check_ignore_names(ignore_names):
    if ignore_names is None:
        return []
    names = ignore_names if isinstance(ignore_names, (tuple, list)) else [ignore_names]
    for name in names:
        if not (isinstance(name, str) or callable(name)):
            raise ValueError(
                'ignore_names needs to be a callable, string or list of them, got '
                '{!r}'.format(name))
    return ignore_names


class NpzDeserializer(serializer.Deserializer):
    """Deserializer reading values saved by :func:`save_npz` (or a dict of arrays).

    Arrays are copied into the destination arrays in place. A value that was saved as
    None loads as None. A destination of None (e.g. an uninitialized parameter) receives
    the stored array.

    Args:
        npz: An ``NpzFile`` (from ``numpy.load``) or a mapping of keys to arrays.
        path (str): Base path of this deserializer in the hierarchy.
        strict (bool): Raise ``KeyError`` for a missing key; otherwise leave the value
            unchanged.
        ignore_names (str, callable or list of them): Keys (full paths) to skip, or
            predicates on the full key returning True to skip it.
    """

    def __init__(self, npz, path='', strict=True, ignore_names=None):
        self.npz = npz
        self.path = path
        self.strict = strict
        self.ignore_names = _check_ignore_names(ignore_names)

    def __getitem__(self, key):
        key = key.strip('/')
        return NpzDeserializer(self.npz, self.path + key + '/', strict=self.strict,
                               ignore_names=self.ignore_names)

    def _fetch(self, key):
        npz = self.npz
        try:
            return npz[key]
        except ValueError:
            if isinstance(npz, numpy.lib.npyio.NpzFile):
                return _read_object_entry(npz, key)
            raise

    def __call__(self, key, value):
        key = self.path + key.lstrip('/')
        if not self.strict and key not in self.npz:
            return value

        ignore_names = self.ignore_names
        if not isinstance(ignore_names, (tuple, list)):
            ignore_names = (ignore_names,)
        for ignore_name in ignore_names:
            if isinstance(ignore_name, str):
                if key == ignore_name:
                    return value
            elif ignore_name(key):
                return value

        if key not in self.npz:
            raise KeyError(
                'load_npz: key {!r} not found in the file (strict=True); pass '
                'strict=False to skip missing values'.format(key))
        dataset = self._fetch(key)
        if dataset is None or _is_none_marker(dataset):
            return None
        if value is None:
            return numpy.asarray(dataset)
        if isinstance(value, numpy.ndarray):
            dataset = numpy.asarray(dataset)
            if dataset.shape != value.shape:
                raise ValueError(
                    'load_npz: shape mismatch for {!r}: the file has shape {} but the '
                    'destination array has shape {}'.format(key, dataset.shape, value.shape))
            numpy.copyto(value, dataset)
            return value
        to_device = getattr(value, 'set', None)
        if callable(to_device) and hasattr(value, 'shape'):  # a CuPy-like array
            to_device(numpy.asarray(dataset, dtype=value.dtype))
            return value
        value_type = type(value)
        dataset_arr = numpy.asarray(dataset)
        if (issubclass(dataset_arr.dtype.type, numpy.number)
                and not (issubclass(dataset_arr.dtype.type, numpy.integer)
                         and value_type is int)
                and not numpy.can_cast(dataset_arr.dtype, value_type, casting='safe')):
            raise TypeError(
                'Cannot safely deserialize from numpy array with dtype={} into a variable '
                'of type {} (key {!r}).'.format(dataset_arr.dtype, value_type, key))
        return value_type(dataset_arr)


def _check_serializable(func, obj):
    if not callable(getattr(obj, 'serialize', None)):
        raise TypeError(
            '{}: obj must have a serialize(serializer) method (a Link, an Optimizer, a '
            'Trainer, ...){}, got {}'.format(
                func, ' or be a dict of arrays' if func == 'save_npz' else '',
                type(obj).__name__))


def _supports_rollback(obj):
    # Links and optimizers: their serialize() has no side effects besides the values it
    # reads or writes. Other objects (e.g. a Trainer, which restores itself, or mocks)
    # are loaded with a single serialize() call, as in Chainer.
    from minichainer import link
    from minichainer import optimizer
    return (isinstance(obj, (link.Link, optimizer.Optimizer))
            and 'serialize' not in vars(obj))


def _load_with_rollback(deserializer, obj):
    """Load ``obj``; for links and optimizers, restore the previous values on failure."""
    backup = None
    if _supports_rollback(obj):
        backup = DictionarySerializer()
        backup.save(obj)
    try:
        deserializer.load(obj)
    except BaseException:
        if backup is not None:
            try:
                NpzDeserializer(backup.target, strict=False).load(obj)
            except Exception:
                pass
        raise


def load_npz(file, obj, path='', strict=True, ignore_names=None):
    """Load an object from an NPZ file written by :func:`save_npz` or by Chainer.

    Args:
        file (str, path-like or file-like): The NPZ file.
        obj: Object with a ``serialize`` method; its arrays are overwritten in place.
        path (str): Path in the file under which ``obj`` was saved (e.g.
            ``'updater/model:main/'``; a missing trailing ``/`` is added).
        strict (bool): Raise on missing keys (otherwise leave those values unchanged).
        ignore_names (str, callable or list of them): Keys to skip (see
            :class:`NpzDeserializer`).

    Raises:
        KeyError: ``strict`` and a key is missing (the message names the key path).
        ValueError: a stored array's shape differs from the destination's, or the file
            holds a pickled object other than None.

    On error a link or an optimizer keeps its previous values.
    """
    _check_serializable('load_npz', obj)
    if path and not path.endswith('/'):
        path += '/'  # Chainer would silently look up 'updater/model:mainpredictor/...'
    f = numpy.load(file, allow_pickle=False)
    if not isinstance(f, numpy.lib.npyio.NpzFile):
        raise ValueError('load_npz: {!r} is not an NPZ archive (got a .npy array)'
                         .format(file))
    with f:
        d = NpzDeserializer(f, path=path, strict=strict, ignore_names=ignore_names)
        _load_with_rollback(d, obj)
