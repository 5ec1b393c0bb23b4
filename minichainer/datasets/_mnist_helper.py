"""Download, conversion and preprocessing shared by the MNIST-format datasets."""
import gzip
import os
import struct
import zlib

import numpy

import minichainer
from minichainer.dataset import download
from minichainer.datasets import _cache
from minichainer.datasets import tuple_dataset


def _read_idx(what, path, url, magic, ndim):
    try:
        with gzip.open(path, 'rb') as f:
            data = f.read()
        header = struct.unpack('>' + 'i' * (ndim + 1), data[:4 * (ndim + 1)])
        if header[0] != magic:
            raise ValueError('bad magic number {} (expected {})'.format(header[0], magic))
        dims = header[1:]
        offset = 4 * (ndim + 1)
        expected = int(numpy.prod(dims))
        if len(data) - offset != expected:
            raise ValueError('{} bytes of data for shape {}'.format(
                len(data) - offset, dims))
    except (OSError, EOFError, zlib.error, struct.error, ValueError) as e:
        raise _cache.corrupt(what, path, url, e) from e
    return numpy.frombuffer(data, numpy.uint8, expected, offset).reshape(dims)


def make_npz(path, urls, what='get_mnist', md5s=(None, None)):
    """Download images/labels (each a list of mirror URLs), convert, save npz to `path`.

    The npz has Chainer's layout: `x` (N, 784) uint8 and `y` (N,) uint8.
    """
    x_urls, y_urls = urls
    x_url, x_path = _cache.download_any(what, x_urls, md5s[0])
    y_url, y_path = _cache.download_any(what, y_urls, md5s[1])
    x = _read_idx(what, x_path, x_url, 2051, 3)
    y = _read_idx(what, y_path, y_url, 2049, 1)
    if len(x) != len(y):
        raise RuntimeError('{}: wrong pair of MNIST images and labels ({} images, {} '
                           'labels)'.format(what, len(x), len(y)))
    x = numpy.ascontiguousarray(x.reshape(len(x), -1))
    y = numpy.array(y)
    numpy.savez_compressed(path, x=x, y=y)
    return {'x': x, 'y': y}


def retrieve(dataset_dir, name, base_urls, files, md5s, what):
    """Return the raw `{'x', 'y'}` arrays of one split, downloading if needed."""
    root = download.get_dataset_directory(dataset_dir)
    path = os.path.join(root, name)
    urls = ([base + files[0] for base in base_urls], [base + files[1] for base in base_urls])
    return _cache.retrieve_npz(path, lambda p: make_npz(p, urls, what, md5s))


def preprocess_mnist(raw, withlabel, ndim, scale, image_dtype, label_dtype, rgb_format,
                     side=28):
    """Reshape/scale raw uint8 images as Chainer's get_mnist does."""
    images = raw['x']
    if ndim == 2:
        images = images.reshape(-1, side, side)
    elif ndim == 3:
        images = images.reshape(-1, 1, side, side)
        if rgb_format:
            images = numpy.broadcast_to(images, (len(images), 3) + images.shape[2:])
    elif ndim != 1:
        raise ValueError('invalid ndim for MNIST dataset: expected 1, 2 or 3, got '
                         '{!r}'.format(ndim))
    images = images.astype(minichainer.get_dtype(image_dtype))
    images *= scale / 255.
    if withlabel:
        labels = raw['y'].astype(label_dtype)
        return tuple_dataset.TupleDataset(images, labels)
    return images
