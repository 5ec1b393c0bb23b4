"""Dataset of the lines of text files (`chainer.datasets.TextDataset`)."""
import io
import threading

from minichainer.dataset import dataset_mixin


class TextDataset(dataset_mixin.DatasetMixin):
    """Dataset whose examples are the lines of one or more text files.

    Line offsets are indexed in the constructor, so any line is read with one seek.
    With one path an example is a `str` (with its newline); with several paths it
    is a tuple of the corresponding lines (the files must have as many lines).

    Args:
        paths (str or list of str): Text file(s).
        encoding, errors, newline: As for `open`; a str or one per file.
        filter_func (callable): `filter_func(*lines)` returning True keeps a line.

    Raises:
        ValueError: No path, option lists of the wrong length, or files with
            different numbers of lines.
    """

    _fps = None

    def __init__(self, paths, encoding=None, errors=None, newline=None,
                 filter_func=None):
        if isinstance(paths, str):
            paths = [paths]
        elif len(paths) == 0:
            raise ValueError('TextDataset: at least one text file must be specified')
        n = len(paths)
        encoding = [encoding] * n if isinstance(encoding, str) or encoding is None \
            else list(encoding)
        errors = [errors] * n if isinstance(errors, str) or errors is None else list(errors)
        newline = [newline] * n if isinstance(newline, str) or newline is None \
            else list(newline)
        if not (n == len(encoding) == len(errors) == len(newline)):
            raise ValueError(
                'TextDataset: encoding, errors and newline must have one entry per file '
                '({} files)'.format(n))
        self._paths = list(paths)
        self._encoding = encoding
        self._errors = errors
        self._newline = newline
        self._open()

        linenum = 0
        lines = []
        bounds = tuple([0] for _ in self._fps)
        while True:
            data = [fp.readline() for fp in self._fps]
            if not all(data):
                if any(data):
                    raise ValueError('TextDataset: the files have different numbers of '
                                     'lines: {}'.format(self._paths))
                break
            for k, fp in enumerate(self._fps):
                bounds[k].append(fp.tell())
            if filter_func is not None and filter_func(*data):
                lines.append(linenum)
            linenum += 1
        if filter_func is None:
            lines = range(linenum)
        self._bounds = bounds
        self._lines = lines
        self._lock = threading.Lock()

    def __del__(self):
        # Chainer leaves this to the file objects (which then warn ResourceWarning). Also
        # runs when __init__ failed before the files were opened.
        try:
            self.close()
        except Exception:
            pass

    def __getstate__(self):
        state = self.__dict__.copy()
        del state['_fps']
        del state['_lock']
        return state

    def __setstate__(self, state):
        # An unpickled copy opens the files again, even when the original was closed.
        self.__dict__ = state
        self._open()
        self._lock = threading.Lock()

    def __len__(self):
        return len(self._lines)

    def _open(self):
        self._fps = [io.open(path, mode='rt', encoding=self._encoding[k],
                             errors=self._errors[k], newline=self._newline[k])
                     for k, path in enumerate(self._paths)]

    def close(self):
        """Close the text files (they are also closed when the dataset is freed).

        Every file is closed even when closing one fails; then the (last) error is
        raised. Reading the dataset afterwards raises `ValueError`, as in Chainer;
        a pickled and unpickled copy opens the files again.
        """
        error = None
        for fp in self._fps:
            try:
                fp.close()
            except Exception as e:
                error = e
        if error is not None:
            raise error

    def get_example(self, idx):
        if idx < 0 or len(self._lines) <= idx:
            raise IndexError('TextDataset: index {} out of range for length {}'.format(
                idx, len(self._lines)))
        linenum = self._lines[idx]
        with self._lock:
            try:
                for k, fp in enumerate(self._fps):
                    fp.seek(self._bounds[k][linenum])
                lines = [fp.readline() for fp in self._fps]
            except ValueError:
                if any(fp.closed for fp in self._fps):
                    raise ValueError('TextDataset: cannot read example {}: the dataset '
                                     'was closed with close()'.format(idx)) from None
                raise
        if len(lines) == 1:
            return lines[0]
        return tuple(lines)
