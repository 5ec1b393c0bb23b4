"""Dataset of pickled objects in one file (`chainer.datasets.PickleDataset`).

Warning:
    Reading a PickleDataset **unpickles** its file, which can run arbitrary
    code: only open files you trust.
"""
import io
import multiprocessing.util
import pickle
import threading

from minichainer.dataset import dataset_mixin


class PickleDatasetWriter:
    """Appends pickled objects to a file to make a
    [`PickleDataset`][minichainer.datasets.pickle_dataset.PickleDataset].

    Args:
        writer: File-like object with `write` and `tell`.
        protocol (int): Pickle protocol.
    """

    def __init__(self, writer, protocol=pickle.HIGHEST_PROTOCOL):
        self._positions = []
        self._writer = writer
        self._protocol = protocol

    def close(self):
        self._writer.close()

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        self.close()

    def write(self, x):
        """Append one example."""
        position = self._writer.tell()
        pickle.dump(x, self._writer, protocol=self._protocol)
        self._positions.append(position)

    def flush(self):
        if hasattr(self._writer, 'flush'):
            self._writer.flush()


class PickleDataset(dataset_mixin.DatasetMixin):
    """Random-access dataset of the objects pickled one after another in a file.

    Every access **unpickles** data from the file (only use trusted files).

    Args:
        reader: Seekable binary file-like object.

    Raises:
        ValueError: `reader` is not seekable.
    """

    def __init__(self, reader):
        if not reader.seekable():
            raise ValueError('PickleDataset: reader must support random access (seek)')
        self._reader = reader
        self._positions = []
        reader.seek(0)
        while True:
            position = reader.tell()
            try:
                pickle.load(reader)
            except EOFError:
                break
            self._positions.append(position)
        self._lock = threading.RLock()
        self._register_after_fork()

    def _register_after_fork(self):
        multiprocessing.util.register_after_fork(self, PickleDataset._after_fork)

    # Pickling (spawned MultiprocessIterator workers, copies): everything but the lock,
    # which the copy makes anew; the reader is pickled with the dataset (a file reader
    # of open_pickle_dataset reopens its file by path).
    def __getstate__(self):
        state = self.__dict__.copy()
        del state['_lock']
        return state

    def __setstate__(self, state):
        self.__dict__.update(state)
        self._lock = threading.RLock()
        self._register_after_fork()

    def _after_fork(self):
        if callable(getattr(self._reader, 'after_fork', None)):
            self._reader.after_fork()

    def close(self):
        """Close the underlying reader."""
        with self._lock:
            self._reader.close()

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        self.close()

    def __len__(self):
        return len(self._positions)

    def get_example(self, index):
        with self._lock:
            self._reader.seek(self._positions[index])
            return pickle.load(self._reader)


class _FileReader(io.RawIOBase):
    """Binary file reader that reopens its file after a fork."""

    def __init__(self, path):
        super().__init__()
        self._path = path
        self._fp = open(path, 'rb')

    def after_fork(self):
        self._fp.close()
        self._fp = open(self._path, 'rb')

    def __getstate__(self):
        return {'_path': self._path}  # the copy opens the file again (and is not closed)

    def __setstate__(self, state):
        self._path = state['_path']
        self._fp = open(self._path, 'rb')

    def flush(self):
        if not self._fp.closed:
            self._fp.flush()

    def close(self):
        super().close()
        self._fp.close()

    def fileno(self):
        return self._fp.fileno()

    def readable(self):
        return True

    def seekable(self):
        return self._fp.seekable()

    def seek(self, offset, whence=io.SEEK_SET):
        return self._fp.seek(offset, whence)

    def tell(self):
        return self._fp.tell()

    def readinto(self, b):
        return self._fp.readinto(b)


def open_pickle_dataset(path):
    """Open the PickleDataset stored at `path` (close it, or use `with`)."""
    return PickleDataset(_FileReader(path))


def open_pickle_dataset_writer(path, protocol=pickle.HIGHEST_PROTOCOL):
    """Open a PickleDatasetWriter writing to `path` (close it, or use `with`)."""
    return PickleDatasetWriter(open(path, 'wb'), protocol=protocol)
