"""Datasets of image files (`chainer.datasets.ImageDataset` and friends).

Reading images needs Pillow (`pip install minichainer[examples]`); it is imported
when a dataset is created.
"""
import bisect
import importlib.util
import io
import os
import sys
import threading
import zipfile

import numpy

import minichainer
from minichainer.dataset import dataset_mixin


def _pillow_available():
    # checked without importing Pillow; sys.modules['PIL'] = None means "absent"
    if 'PIL' in sys.modules:
        return sys.modules['PIL'] is not None
    try:
        return importlib.util.find_spec('PIL') is not None
    except (ImportError, ValueError):
        return False


#: Whether Pillow is installed (Chainer's ``image_dataset.available``).
available = _pillow_available()


def _check_pillow_availability():
    """Raise ImportError naming Pillow when it cannot be imported."""
    _import_pil_image()


def _import_pil_image():
    try:
        from PIL import Image
    except ImportError as e:
        raise ImportError(
            'image datasets need Pillow, which is not installed; install it with '
            '`pip install minichainer[examples]` (or `pip install Pillow`)') from e
    return Image


def _read_image_as_array(path, dtype):
    Image = _import_pil_image()
    with Image.open(path) as f:
        return numpy.asarray(f, dtype=dtype)


def _postprocess_image(image):
    if image.ndim == 2:  # greyscale
        image = image[..., None]
    return image.transpose(2, 0, 1)


def _read_pairs(pairs_path):
    pairs = []
    with open(pairs_path) as pairs_file:
        for i, line in enumerate(pairs_file):
            pair = line.strip().split()
            if len(pair) != 2:
                raise ValueError(
                    'invalid format at line {} in file {}: expected "<path> <label>", '
                    'got {!r}'.format(i, pairs_path, line.rstrip('\n')))
            pairs.append((pair[0], int(pair[1])))
    return pairs


class ImageDataset(dataset_mixin.DatasetMixin):
    """Dataset of images read from files on every access, as `(channels, H, W)` arrays.

    Args:
        paths (str or list of str): Image paths, or the path of a text file listing
            one image path per line; relative to `root`.
        root (str): Root directory of the images.
        dtype: Array dtype (default `minichainer.config.dtype`).
    """

    def __init__(self, paths, root='.', dtype=None):
        _import_pil_image()
        if isinstance(paths, str):
            with open(paths) as paths_file:
                paths = [path.strip() for path in paths_file]
        self._paths = paths
        self._root = root
        self._dtype = minichainer.get_dtype(dtype)

    def __len__(self):
        return len(self._paths)

    def get_example(self, i):
        path = os.path.join(self._root, self._paths[i])
        return _postprocess_image(_read_image_as_array(path, self._dtype))


class LabeledImageDataset(dataset_mixin.DatasetMixin):
    """Dataset of `(image, label)` pairs; images are read on every access.

    Args:
        pairs (str or list of tuples): `(path, int_label)` pairs, or the path of a
            text file with one `path label` pair per line (Caffe's format).
        root (str): Root directory of the images.
        dtype: Image dtype (default `minichainer.config.dtype`).
        label_dtype: Label dtype.
    """

    def __init__(self, pairs, root='.', dtype=None, label_dtype=numpy.int32):
        _import_pil_image()
        if isinstance(pairs, str):
            pairs = _read_pairs(pairs)
        self._pairs = pairs
        self._root = root
        self._dtype = minichainer.get_dtype(dtype)
        self._label_dtype = label_dtype

    def __len__(self):
        return len(self._pairs)

    def get_example(self, i):
        path, int_label = self._pairs[i]
        image = _read_image_as_array(os.path.join(self._root, path), self._dtype)
        label = numpy.array(int_label, dtype=self._label_dtype)
        return _postprocess_image(image), label


class ZippedImageDataset(dataset_mixin.DatasetMixin):
    """Dataset of the images stored in one zip file.

    Args:
        zipfilename (str): Path of the zip file (holding only images).
        dtype: Image dtype (default `minichainer.config.dtype`).
    """

    def __init__(self, zipfilename, dtype=None):
        _import_pil_image()
        self._zipfilename = zipfilename
        self._zf = zipfile.ZipFile(zipfilename)
        self._zf_pid = os.getpid()
        self._dtype = minichainer.get_dtype(dtype)
        self._paths = [x for x in self._zf.namelist() if not x.endswith('/')]
        self._lock = threading.Lock()

    def __len__(self):
        return len(self._paths)

    def __getstate__(self):
        state = self.__dict__.copy()
        state['_zf'] = None
        state['_lock'] = None
        return state

    def __setstate__(self, state):
        self.__dict__ = state
        self._lock = threading.Lock()

    def get_example(self, i_or_filename):
        if isinstance(i_or_filename, (int, numpy.integer)):
            name = self._paths[i_or_filename]
        else:
            name = i_or_filename
        with self._lock:
            if self._zf is None or self._zf_pid != os.getpid():
                self._zf_pid = os.getpid()
                self._zf = zipfile.ZipFile(self._zipfilename)
            data = self._zf.read(name)
        image = _read_image_as_array(io.BytesIO(data), self._dtype)
        return _postprocess_image(image)


class MultiZippedImageDataset(dataset_mixin.DatasetMixin):
    """Dataset of the images of several zip files, one after another."""

    def __init__(self, zipfilenames, dtype=None):
        self._zfs = [ZippedImageDataset(fn, dtype) for fn in zipfilenames]
        self._accumulated = [0]
        for zf in self._zfs:
            self._accumulated.append(self._accumulated[-1] + len(zf))

    def __len__(self):
        return self._accumulated[-1]

    def get_example(self, i):
        target = bisect.bisect(self._accumulated, i) - 1
        return self._zfs[target].get_example(i - self._accumulated[target])


class LabeledZippedImageDataset(dataset_mixin.DatasetMixin):
    """Dataset of `(image, label)` pairs with the images in a zip file.

    Args:
        zipfilename (str): Path of the zip file.
        labelfilename (str): Text file of `name label` lines naming zip members.
        dtype: Image dtype (default `minichainer.config.dtype`).
        label_dtype: Label dtype.
    """

    def __init__(self, zipfilename, labelfilename, dtype=None, label_dtype=numpy.int32):
        self._pairs = _read_pairs(labelfilename)
        self._label_dtype = label_dtype
        self._zipfile = ZippedImageDataset(zipfilename, dtype=dtype)

    def __len__(self):
        return len(self._pairs)

    def get_example(self, i):
        path, int_label = self._pairs[i]
        label = numpy.array(int_label, dtype=self._label_dtype)
        return self._zipfile.get_example(path), label
