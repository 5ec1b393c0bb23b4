import io
import pickle
import zipfile

import numpy
import pytest

from minichainer import datasets


def test_text_dataset_single_multiple_and_filter(tmp_path):
    a = tmp_path / 'a.txt'
    b = tmp_path / 'b.txt'
    a.write_text('one\ntwo\nthree\n')
    b.write_text('uno\ndos\ntres\n')
    ds = datasets.TextDataset(str(a))
    assert len(ds) == 3 and ds[1] == 'two\n' and ds[2] == 'three\n'
    with pytest.raises(IndexError):
        ds[3]
    pair = datasets.TextDataset([str(a), str(b)], filter_func=lambda x, y: x != 'two\n')
    assert len(pair) == 2 and pair[1] == ('three\n', 'tres\n')
    clone = pickle.loads(pickle.dumps(pair))
    assert clone[0] == ('one\n', 'uno\n')
    b.write_text('uno\n')
    with pytest.raises(ValueError, match='numbers of lines'):
        datasets.TextDataset([str(a), str(b)])
    with pytest.raises(ValueError):
        datasets.TextDataset([])


def test_text_dataset_close_then_access_raises_and_pickled_copy_reopens(tmp_path):
    a = tmp_path / 'a.txt'
    a.write_text('one\ntwo\n')
    ds = datasets.TextDataset([str(a), str(a)])
    assert ds[1] == ('two\n', 'two\n')
    ds.close()
    with pytest.raises(ValueError, match='close'):
        ds[0]
    clone = pickle.loads(pickle.dumps(ds))  # Chainer: unpickling opens the files again
    assert clone[0] == ('one\n', 'one\n')
    clone.close()


def test_text_dataset_close_closes_every_file_then_raises(tmp_path):
    a = tmp_path / 'a.txt'
    a.write_text('one\n')
    ds = datasets.TextDataset([str(a)] * 3)
    first, last = ds._fps[0], ds._fps[2]
    ds._fps[1].close()
    ds._fps[1] = None  # closing it fails
    with pytest.raises(AttributeError):
        ds.close()
    assert first.closed and last.closed


def test_pickle_dataset_can_be_pickled(tmp_path):
    buffer = io.BytesIO()
    writer = datasets.PickleDatasetWriter(buffer)
    writer.write({'a': 1})
    writer.write('b')
    writer.flush()
    clone = pickle.loads(pickle.dumps(datasets.PickleDataset(buffer)))
    assert len(clone) == 2 and clone[1] == 'b' and clone[0] == {'a': 1}
    path = str(tmp_path / 'data.pkl')
    with datasets.open_pickle_dataset_writer(path) as w:
        w.write(numpy.arange(2))
    with datasets.open_pickle_dataset(path) as ds:
        clone = pickle.loads(pickle.dumps(ds))
    numpy.testing.assert_array_equal(clone[0], [0, 1])  # the copy opened the file itself
    clone.close()


def test_pickle_dataset_round_trip(tmp_path):
    path = str(tmp_path / 'data.pkl')
    with datasets.open_pickle_dataset_writer(path) as w:
        w.write((1, 2.0, 'hello'))
        w.write({'x': numpy.arange(3)})
    with datasets.open_pickle_dataset(path) as ds:
        assert len(ds) == 2
        assert ds[0] == (1, 2.0, 'hello')
        numpy.testing.assert_array_equal(ds[1]['x'], [0, 1, 2])


def _write_images(tmp_path):
    from PIL import Image
    rgb = numpy.arange(2 * 3 * 3, dtype=numpy.uint8).reshape(2, 3, 3)
    grey = numpy.arange(6, dtype=numpy.uint8).reshape(2, 3)
    Image.fromarray(rgb).save(str(tmp_path / 'rgb.png'))
    Image.fromarray(grey).save(str(tmp_path / 'grey.png'))
    return rgb, grey


def test_image_datasets(tmp_path):
    pytest.importorskip('PIL')
    rgb, grey = _write_images(tmp_path)
    ds = datasets.ImageDataset(['rgb.png', 'grey.png'], root=str(tmp_path))
    assert len(ds) == 2
    assert ds[0].shape == (3, 2, 3) and ds[0].dtype == numpy.float32
    numpy.testing.assert_array_equal(ds[0], rgb.transpose(2, 0, 1))
    numpy.testing.assert_array_equal(ds[1], grey[None])
    listing = tmp_path / 'pairs.txt'
    listing.write_text('rgb.png 3\ngrey.png 5\n')
    labeled = datasets.LabeledImageDataset(str(listing), root=str(tmp_path),
                                           dtype=numpy.float64)
    image, label = labeled[1]
    assert image.dtype == numpy.float64 and label == 5 and label.dtype == numpy.int32
    listing.write_text('rgb.png\n')
    with pytest.raises(ValueError, match='line 0'):
        datasets.LabeledImageDataset(str(listing), root=str(tmp_path))
    with zipfile.ZipFile(str(tmp_path / 'imgs.zip'), 'w') as z:
        z.write(str(tmp_path / 'rgb.png'), 'rgb.png')
        z.write(str(tmp_path / 'grey.png'), 'grey.png')
    zipped = datasets.ZippedImageDataset(str(tmp_path / 'imgs.zip'))
    assert len(zipped) == 2 and zipped.get_example('rgb.png').shape == (3, 2, 3)
    zipped = pickle.loads(pickle.dumps(zipped))
    assert zipped[1].shape in ((1, 2, 3), (3, 2, 3))
    multi = datasets.MultiZippedImageDataset([str(tmp_path / 'imgs.zip')] * 2)
    assert len(multi) == 4 and multi[3].shape == zipped[1].shape


def test_image_dataset_without_pillow_names_the_extra(monkeypatch):
    import builtins
    real_import = builtins.__import__

    def fake_import(name, *args, **kwargs):
        if name == 'PIL' or name.startswith('PIL.'):
            raise ImportError('no PIL')
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, '__import__', fake_import)
    with pytest.raises(ImportError, match=r'minichainer\[examples\]'):
        datasets.ImageDataset(['a.png'])
