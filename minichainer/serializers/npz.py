"""NPZ serialization (`chainer.serializers.npz`), file-compatible with Chainer 7.

The hierarchy of an object is flattened into `path/to/value` keys (`predictor/l1/W`,
`updater/optimizer:main/predictor/l1/W/m`, ...) exactly as Chainer does, and stored in
an `.npz` archive. `None` is stored as Chainer stores it: a 0-d object array holding
None (a tiny pickle inside the archive).

Deliberate differences from Chainer:

* Loading uses `allow_pickle=False`. The only pickled entry accepted is Chainer's
  `None` marker, which is decoded by a restricted unpickler that can build nothing but a
  0-d object array; any other pickled entry raises `ValueError`. Saving refuses object
  arrays other than None (Chainer would pickle them).
* `save_npz` to a path writes a temporary file in the same folder and renames it into
  place, so the destination is never half-written.
* `load_npz` leaves a link or an optimizer unchanged when loading fails (missing key,
  shape mismatch): their previous values are restored before the error propagates (a
  Trainer restores itself).
* A stored array whose shape differs from the destination array raises `ValueError`
  (Chainer relied on `numpy.copyto` broadcasting).
* [`DictionarySerializer`][minichainer.serializers.npz.DictionarySerializer] stores copies of the
  arrays, so its `target` does not change when the model is trained further.
"""
import codecs
import contextlib
import io
import os
import pickle
import zipfile
import zlib

import numpy

from minichainer import link
from minichainer import optimizer
from minichainer import serializer
from minichainer.serializers import _arrays
from minichainer.utils import atomic_write

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

    It does not write files: feed `target` to [`save_npz`][minichainer.serializers.npz.save_npz] (or
    `numpy.savez`). None values are stored as `numpy.asarray(None)` as in Chainer.

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
            host = _arrays.to_host(value)  # a CuPy array: copied to the host once
            stored = numpy.array(host, copy=host is value)
        self.target[self.path + key] = stored
        return value


def serialize(obj):
    """Serialize `obj` into a new dictionary of arrays (keys as in an npz file)."""
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
    arrays = [(key, numpy.asanyarray(_arrays.to_host(value)))
              for key, value in target.items()]
    for key, array in arrays:  # fail before anything is written
        _check_storable(key, array)
    method = zipfile.ZIP_DEFLATED if compression else zipfile.ZIP_STORED
    with zipfile.ZipFile(file, mode='w', compression=method, allowZip64=True) as zf:
        for key, array in arrays:
            _write_entry(zf, key, array)


def _write_to_path(path, write):
    """Call `write(fileobj)` on `path` so that it is never seen half-written."""
    def write_at(target):
        with open(target, 'wb') as f:
            write(f)

    atomic_write.write_file(path, write_at)


def save_npz(file, obj, compression=True):
    """Save an object (or a dict of arrays) to an NPZ file in Chainer's layout.

    Args:
        file (str, path-like or file-like): Destination. A path is written atomically
            (temporary file in the same folder, then `os.replace`).
        obj: Object with a `serialize` method, or a dict of arrays saved as is.
        compression (bool): Compress the archive (`ZIP_DEFLATED`).

    Raises:
        TypeError: `obj` has no `serialize` method, or a value cannot be stored
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
            return codecs.encode
        raise pickle.UnpicklingError(
            'load_npz: refusing to unpickle {}.{} (pickled objects are never loaded)'
            .format(module, name))


_RECONSTRUCT = numpy.ndarray.__reduce__(numpy.zeros(1))[0]


def _entry_header(npz, key):
    """`(shape, dtype, fp)` of an entry's `.npy` header, `fp` positioned after
    it."""
    raw = npz.zip.read(key + '.npy')
    fp = io.BytesIO(raw)
    version = numpy.lib.format.read_magic(fp)
    if version == (1, 0):
        shape, _, dtype = numpy.lib.format.read_array_header_1_0(fp)
    else:
        shape, _, dtype = numpy.lib.format.read_array_header_2_0(fp)
    return shape, dtype, fp


def _in_file(source):
    return '' if source is None else ' of {!r}'.format(source)


def _read_object_entry(npz, key, source=None, header=None):
    """Decode a pickled entry of an NpzFile; only Chainer's None marker is accepted."""
    shape, dtype, fp = _entry_header(npz, key) if header is None else header
    if dtype == object and shape == ():
        try:
            value = _RestrictedUnpickler(fp).load()
        except Exception as e:
            raise ValueError(
                'load_npz: the entry {!r}{} is a pickled object, which is never loaded '
                '(only Chainer\'s None marker is accepted): {}'.format(
                    key, _in_file(source), e)) from None
        if _is_none_marker(value):
            return value
    raise ValueError(
        'load_npz: the entry {!r}{} is a pickled object array (dtype={}, shape={}); only '
        'None is accepted, as pickled objects are never loaded'.format(
            key, _in_file(source), dtype, shape))


def _read_entry(npz, key, source=None):
    """`npz[key]`, with errors that name the file and the key: a pickled entry
    other than None, or a corrupted/truncated member (bad CRC, zlib error, short data)."""
    if not isinstance(npz, numpy.lib.npyio.NpzFile):
        return npz[key]
    try:
        # Read the whole member first: zipfile checks its CRC only when a member is
        # read to the end, which numpy's reader of the array data does not do.
        members = getattr(npz, '_files', None) or npz.zip.namelist()
        member = key + '.npy' if key + '.npy' in members else key
        raw = npz.zip.read(member)
        return numpy.lib.format.read_array(io.BytesIO(raw), allow_pickle=False)
    except (ValueError, OSError, EOFError, zlib.error, zipfile.BadZipFile) as e:
        error = e
    try:
        header = _entry_header(npz, key)
    except Exception:
        header = None
    if header is not None and header[1] == object:
        return _read_object_entry(npz, key, source, header)
    raise ValueError(
        'load_npz: the entry {!r}{} is corrupted or truncated ({}: {})'.format(
            key, _in_file(source), type(error).__name__, error)) from error


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
    """Deserializer reading values saved by [`save_npz`][minichainer.serializers.npz.save_npz] (or a
    dict of arrays).

    Arrays are copied into the destination arrays in place. A value that was saved as
    None loads as None. A destination of None (e.g. an uninitialized parameter) receives
    the stored array.

    Args:
        npz: An `NpzFile` (from `numpy.load`) or a mapping of keys to arrays.
        path (str): Base path of this deserializer in the hierarchy.
        strict (bool): Raise `KeyError` for a missing key; otherwise leave the value
            unchanged.
        ignore_names (str, callable or list of them): Keys (full paths) to skip, or
            predicates on the full key returning True to skip it.
    """

    _source = None  # the file name, for messages (set by load_npz)

    def __init__(self, npz, path='', strict=True, ignore_names=None):
        self.npz = npz
        self.path = path
        self.strict = strict
        self.ignore_names = _check_ignore_names(ignore_names)

    def __getitem__(self, key):
        key = key.strip('/')
        child = NpzDeserializer(self.npz, self.path + key + '/', strict=self.strict,
                                ignore_names=self.ignore_names)
        child._source = self._source
        return child

    def _fetch(self, key):
        return _read_entry(self.npz, key, self._source)

    def _check_castable(self, key, dataset, dtype):
        if not numpy.can_cast(dataset.dtype, dtype, casting='same_kind'):
            raise TypeError(
                'load_npz: cannot load the entry {!r}{} into its destination: the file '
                'holds dtype {} but the destination array has dtype {}, which it cannot '
                'be converted to'.format(key, _in_file(self._source), dataset.dtype,
                                         numpy.dtype(dtype)))

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
                'load_npz: key {!r} not found in the file{} (strict=True); pass '
                'strict=False to skip missing values'.format(
                    key, '' if self._source is None else ' {!r}'.format(self._source)))
        dataset = self._fetch(key)
        if dataset is None or _is_none_marker(dataset):
            return None
        if value is None:
            return numpy.asarray(dataset)
        if isinstance(value, numpy.ndarray):
            dataset = _arrays.array_for(
                'load_npz', repr(key) + _in_file(self._source), dataset, value)
            self._check_castable(key, dataset, value.dtype)
            numpy.copyto(value, dataset)
            return value
        if hasattr(value, 'shape') and hasattr(value, 'dtype') \
                and not isinstance(value, numpy.generic):  # a device (CuPy) array
            dataset = _arrays.array_for(
                'load_npz', repr(key) + _in_file(self._source), dataset, value)
            self._check_castable(key, dataset, value.dtype)
            _arrays.load_into_device_array(value, dataset)
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
    return (isinstance(obj, (link.Link, optimizer.Optimizer))
            and 'serialize' not in vars(obj))


def _load_with_rollback(deserializer, obj):
    """Load `obj`; for links and optimizers, restore the previous values on failure."""
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


_ZIP_MAGICS = (b'PK\x03\x04', b'PK\x05\x06')  # a local file header, an empty zip


def _describe_source(file):
    if isinstance(file, (str, bytes, os.PathLike)):
        return os.fsdecode(os.fspath(file))
    return getattr(file, 'name', None) or repr(file)


def _peek(file, n):
    """The first `n` bytes of a path or a seekable file object (left where it was)."""
    if isinstance(file, (str, bytes, os.PathLike)):
        with open(file, 'rb') as f:
            return f.read(n)
    try:
        position = file.tell()
        head = file.read(n)
        file.seek(position)
    except (AttributeError, OSError, ValueError):
        return None
    return head


def _open_npz(file, stack):
    """`numpy.load(file, allow_pickle=False)` for an NPZ archive, closed (with the file,
    when `file` is a path) by `stack` (a `contextlib.ExitStack`); anything else raises
    `ValueError` naming the file and what it is instead, and leaves nothing open."""
    source = _describe_source(file)
    head = _peek(file, 6)
    if head is not None and not head.startswith(_ZIP_MAGICS):
        if head.startswith(b'\x93NUMPY'):
            what = 'a single .npy array (numpy.save), not an archive of named arrays'
        elif not head:
            what = 'empty'
        else:
            what = 'not a zip archive: it starts with {!r}'.format(head)
        raise ValueError(
            'load_npz: {!r} is not an NPZ archive (the zip file save_npz and '
            'numpy.savez write): it is {}'.format(source, what))
    try:
        if not hasattr(file, 'read'):
            # Opened here: numpy.load leaves a file it opened itself open when the
            # archive turns out truncated (its NpzFile has taken the file over by then).
            file = stack.enter_context(open(os.fspath(file), 'rb'))
        f = numpy.load(file, allow_pickle=False)
    except (zipfile.BadZipFile, EOFError, zlib.error, ValueError, OSError) as e:
        if isinstance(e, FileNotFoundError):
            raise
        raise ValueError('load_npz: {!r} is not a readable NPZ archive (truncated or '
                         'corrupted: {}: {})'.format(source, type(e).__name__, e)) from e
    if not isinstance(f, numpy.lib.npyio.NpzFile):
        raise ValueError('load_npz: {!r} is not an NPZ archive (got a .npy array)'
                         .format(source))
    return stack.enter_context(f)


def load_npz(file, obj, path='', strict=True, ignore_names=None):
    """Load an object from an NPZ file written by [`save_npz`][minichainer.serializers.npz.save_npz]
    or by Chainer.

    Args:
        file (str, path-like or file-like): The NPZ file.
        obj: Object with a `serialize` method; its arrays are overwritten in place.
        path (str): Path in the file under which `obj` was saved (e.g.
            `'updater/model:main/'`; a missing trailing `/` is added).
        strict (bool): Raise on missing keys (otherwise leave those values unchanged).
        ignore_names (str, callable or list of them): Keys to skip (see
            [`NpzDeserializer`][minichainer.serializers.npz.NpzDeserializer]).

    Raises:
        KeyError: `strict` and a key is missing (the message names the key path).
        ValueError: the file is not an NPZ archive, an entry is corrupted, a stored
            array's shape differs from the destination's, or the file holds a pickled
            object other than None (each message names the file and the key).
        TypeError: a stored array's dtype cannot be converted to the destination's
            (e.g. complex or strings into a float parameter).

    On error a link or an optimizer keeps its previous values.
    """
    _check_serializable('load_npz', obj)
    if path and not path.endswith('/'):
        path += '/'  # Chainer would silently look up 'updater/model:mainpredictor/...'
    with contextlib.ExitStack() as stack:
        f = _open_npz(file, stack)
        d = NpzDeserializer(f, path=path, strict=strict, ignore_names=ignore_names)
        d._source = _describe_source(file)
        _load_with_rollback(d, obj)
