import gzip
import hashlib
import io
import os
import pickle
import struct
import tarfile

import numpy
import pytest

from minichainer.dataset import download
from minichainer import datasets
from minichainer.datasets import cifar
from minichainer.datasets import fashion_mnist
from minichainer.datasets import kuzushiji_mnist
from minichainer.datasets import mnist
from minichainer.datasets import ptb
from minichainer.datasets import svhn


def _idx_images(images):
    n = len(images)
    return gzip.compress(struct.pack('>iiii', 2051, n, 28, 28) + images.tobytes())


def _idx_labels(labels):
    return gzip.compress(struct.pack('>ii', 2049, len(labels)) + labels.tobytes())


def _md5(data):
    return hashlib.md5(data).hexdigest()


def _serve_mnist(server, module, prefix, n_train=5, n_test=3):
    rng = numpy.random.RandomState(0)
    raw = {}
    files = {}
    for split, n in (('train', n_train), ('test', n_test)):
        x = rng.randint(0, 256, (n, 28, 28)).astype(numpy.uint8)
        y = rng.randint(0, 10, n).astype(numpy.uint8)
        raw[split] = (x, y)
        names, _ = module._FILES[split + '.npz']
        blobs = (_idx_images(x), _idx_labels(y))
        for name, blob in zip(names, blobs):
            server.files['/' + prefix + '/' + name] = blob
        files[split + '.npz'] = (names, tuple(_md5(b) for b in blobs))
    return raw, files


MNIST_LIKE = [
    (mnist, datasets.get_mnist, 'pfnet/chainer/mnist'),
    (fashion_mnist, datasets.get_fashion_mnist, 'pfnet/chainer/fashion-mnist'),
    (kuzushiji_mnist, datasets.get_kuzushiji_mnist, 'pfnet/chainer/kuzushiji_mnist'),
]


@pytest.mark.parametrize('module,getter,subdir', MNIST_LIKE)
def test_mnist_like_download_convert_and_cache(module, getter, subdir, http_server,
                                               dataset_root, monkeypatch):
    raw, files = _serve_mnist(http_server, module, 'm')
    # the first source is dead: the mirror is used
    monkeypatch.setattr(module, '_BASE_URLS', [http_server.url + '/dead/',
                                               http_server.url + '/m/'])
    monkeypatch.setattr(module, '_FILES', files)
    train, test = getter()
    assert len(train) == 5 and len(test) == 3
    image, label = train[2]
    assert image.shape == (784,) and image.dtype == numpy.float32
    numpy.testing.assert_allclose(image, raw['train'][0][2].ravel() / 255., rtol=1e-6)
    assert label == raw['train'][1][2] and label.dtype == numpy.int32
    assert os.path.exists(os.path.join(str(dataset_root), subdir, 'train.npz'))

    n_requests = len(http_server.requests)
    images, _ = getter(withlabel=False, ndim=3, scale=2., dtype=numpy.float64,
                       rgb_format=True)
    assert len(http_server.requests) == n_requests  # served from the npz cache
    assert images.shape == (5, 3, 28, 28) and images.dtype == numpy.float64
    assert images.max() <= 2.
    numpy.testing.assert_array_equal(images[:, 0], images[:, 2])
    square, _ = getter(ndim=2, label_dtype=numpy.int64)
    assert square[0][0].shape == (28, 28) and square[0][1].dtype == numpy.int64
    with pytest.raises(ValueError, match='ndim'):
        getter(ndim=4)


def test_mnist_corrupt_download_is_removed(http_server, dataset_root, monkeypatch):
    raw, files = _serve_mnist(http_server, mnist, 'm')
    http_server.files['/m/train-images-idx3-ubyte.gz'] = gzip.compress(b'garbage')[:-4]
    monkeypatch.setattr(mnist, '_BASE_URLS', [http_server.url + '/m/'])
    monkeypatch.setattr(mnist, '_FILES', {k: (v[0], (None, None)) for k, v in files.items()})
    with pytest.raises(RuntimeError, match='corrupt') as info:
        datasets.get_mnist()
    assert 'removed' in str(info.value)
    cached = os.listdir(os.path.join(str(dataset_root), '_dl_cache'))
    url = http_server.url + '/m/train-images-idx3-ubyte.gz'
    assert hashlib.md5(url.encode()).hexdigest() not in cached
    assert not os.path.exists(os.path.join(str(dataset_root), 'pfnet/chainer/mnist/train.npz'))


def test_mnist_checksum_mismatch(http_server, dataset_root, monkeypatch):
    raw, files = _serve_mnist(http_server, mnist, 'm')
    monkeypatch.setattr(mnist, '_BASE_URLS', [http_server.url + '/m/'])
    bad = {k: (v[0], ('0' * 32, v[1][1])) for k, v in files.items()}
    monkeypatch.setattr(mnist, '_FILES', bad)
    with pytest.raises(download.DownloadError, match='MD5'):
        datasets.get_mnist()


def test_mnist_offline_error_names_the_file(dataset_root, monkeypatch):
    monkeypatch.setattr(mnist, '_BASE_URLS', ['http://127.0.0.1:9/'])
    with pytest.raises(download.DownloadError) as info:
        datasets.get_mnist()
    message = str(info.value)
    assert 'train-images-idx3-ubyte.gz' in message and 'place it at' in message
    assert str(dataset_root) in message


def _tar(members):
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode='w:gz') as tar:
        for name, obj in members.items():
            data = pickle.dumps(obj)
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def test_cifar10_and_cifar100(http_server, dataset_root, monkeypatch):
    rng = numpy.random.RandomState(0)
    members = {}
    for i in range(5):
        members['cifar-10-batches-py/data_batch_{}'.format(i + 1)] = {
            'data': rng.randint(0, 256, (2, 3072)).astype(numpy.uint8),
            'labels': [i, 9 - i]}
    test_data = rng.randint(0, 256, (3, 3072)).astype(numpy.uint8)
    members['cifar-10-batches-py/test_batch'] = {'data': test_data, 'labels': [1, 2, 3]}
    blob10 = _tar(members)
    blob100 = _tar({
        'cifar-100-python/train': {'data': test_data, 'fine_labels': [50, 60, 99]},
        'cifar-100-python/test': {'data': test_data[:1], 'fine_labels': [7]}})
    http_server.files['/c/cifar-10-python.tar.gz'] = blob10
    http_server.files['/c/cifar-100-python.tar.gz'] = blob100
    monkeypatch.setattr(cifar, '_BASE_URL', http_server.url + '/c/')
    monkeypatch.setattr(cifar, '_MD5', {'cifar-10': _md5(blob10), 'cifar-100': _md5(blob100)})

    train, test = datasets.get_cifar10()
    assert len(train) == 10 and len(test) == 3
    image, label = test[1]
    assert image.shape == (3, 32, 32) and image.dtype == numpy.float32 and label == 2
    numpy.testing.assert_allclose(image.ravel(), test_data[1] / 255., rtol=1e-6)
    assert [int(train[k][1]) for k in range(4)] == [0, 9, 1, 8]
    flat, _ = datasets.get_cifar10(withlabel=False, ndim=1, scale=3.)
    assert flat.shape == (10, 3072) and flat.max() <= 3.
    train100, test100 = datasets.get_cifar100()
    assert [int(t) for _, t in train100] == [50, 60, 99] and len(test100) == 1
    assert train100[0][1].dtype == numpy.int32
    with pytest.raises(ValueError, match='ndim'):
        datasets.get_cifar10(ndim=2)


def test_svhn(http_server, dataset_root, monkeypatch):
    scipy_io = pytest.importorskip('scipy.io')
    rng = numpy.random.RandomState(0)
    blobs = {}
    for name, n in (('train_32x32.mat', 4), ('test_32x32.mat', 2), ('extra_32x32.mat', 1)):
        buf = io.BytesIO()
        x = rng.randint(0, 256, (32, 32, 3, n)).astype(numpy.uint8)
        y = numpy.array([[10], [3], [10], [1]][:n], numpy.uint8)
        scipy_io.savemat(buf, {'X': x, 'y': y})
        blobs[name] = (buf.getvalue(), x)
        http_server.files['/s/' + name] = buf.getvalue()
    monkeypatch.setattr(svhn, '_BASE_URLS', [http_server.url + '/s/'])
    monkeypatch.setattr(svhn, '_FILES', {
        'train.npz': ('train_32x32.mat', _md5(blobs['train_32x32.mat'][0])),
        'test.npz': ('test_32x32.mat', _md5(blobs['test_32x32.mat'][0])),
        'extra.npz': ('extra_32x32.mat', _md5(blobs['extra_32x32.mat'][0]))})
    train, test = datasets.get_svhn()
    assert len(train) == 4 and len(test) == 2
    assert [int(t) for _, t in train] == [0, 3, 0, 1]
    image = train[1][0]
    assert image.shape == (3, 32, 32)
    numpy.testing.assert_allclose(image, blobs['train_32x32.mat'][1][..., 1].transpose(
        2, 0, 1) / 255., rtol=1e-6)
    _, _, extra = datasets.get_svhn(withlabel=False, add_extra=True)
    assert extra.shape == (1, 3, 32, 32)


def test_ptb(http_server, dataset_root, monkeypatch):
    http_server.files['/p/ptb.train.txt'] = b' the cat sat\n the dog\n'
    http_server.files['/p/ptb.valid.txt'] = b' the cat\n'
    http_server.files['/p/ptb.test.txt'] = b' dog sat\n'
    monkeypatch.setattr(ptb, '_BASE_URL', http_server.url + '/p/')
    vocab = datasets.get_ptb_words_vocabulary()
    assert vocab == {'the': 0, 'cat': 1, 'sat': 2, '<eos>': 3, 'dog': 4}
    train, valid, test = datasets.get_ptb_words()
    assert train.dtype == numpy.int32
    assert train.tolist() == [0, 1, 2, 3, 0, 4, 3]
    assert valid.tolist() == [0, 1, 3] and test.tolist() == [4, 2, 3]
    assert datasets.get_ptb_words_vocabulary() == vocab  # from vocab.txt


def test_digits():
    pytest.importorskip('sklearn')
    state = numpy.random.get_state()[1].copy()
    train, test = datasets.get_digits()
    numpy.testing.assert_array_equal(numpy.random.get_state()[1], state)
    assert len(train) == 1437 and len(test) == 360
    x, t = train[0]
    assert x.shape == (64,) and x.dtype == numpy.float32 and t.dtype == numpy.int32
    assert 0 <= x.min() and x.max() <= 1.
    images, _ = datasets.get_digits(withlabel=False, ndim=3, scale=255.)
    assert images.shape == (1437, 1, 8, 8) and images.max() == 255.
    numpy.testing.assert_array_equal(images[0, 0].ravel(), x * 255.)
    rgb, _ = datasets.get_digits(ndim=3, rgb_format=True)
    assert rgb[0][0].shape == (3, 8, 8)
    assert datasets.get_digits(ndim=2)[0][0][0].shape == (8, 8)
    with pytest.raises(ValueError, match='ndim'):
        datasets.get_digits(ndim=4)


def test_digits_without_sklearn_names_the_extra(monkeypatch):
    import sys
    monkeypatch.setitem(sys.modules, 'sklearn', None)
    monkeypatch.setitem(sys.modules, 'sklearn.datasets', None)
    with pytest.raises(ImportError, match=r'minichainer\[examples\]'):
        datasets.get_digits()


def test_label_helpers():
    assert datasets.get_fashion_mnist_labels()[9] == 'Ankle boot'
    assert datasets.get_kuzushiji_mnist_labels()[0] == ('o', '\u304A')
