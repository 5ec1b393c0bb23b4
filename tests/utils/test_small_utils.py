"""utils.precision, utils.error, utils._collections, utils.imgproc and the names
``chainer.utils`` exports."""
import collections

import numpy
import pytest

import minichainer
from minichainer import utils
from minichainer.utils import _collections
from minichainer.utils import error
from minichainer.utils import imgproc
from minichainer.utils import precision


class _Recorder:
    @precision._fp16_mixed_precision_helper
    def forward(self, inputs):
        self.seen = [x.dtype for x in inputs]
        return inputs[0] * 2, None, numpy.arange(2)


@pytest.mark.parametrize('dtypes, expected_in, expected_out', [
    ((numpy.float16,), [numpy.float32], numpy.float16),
    ((numpy.float16, numpy.int32), [numpy.float32, numpy.int32], numpy.float16),
    ((numpy.float16, numpy.float32), [numpy.float32, numpy.float32], numpy.float32),
    ((numpy.float32,), [numpy.float32], numpy.float32),
    ((numpy.float64,), [numpy.float64], numpy.float64),
])
def test_fp16_mixed_precision_helper(dtypes, expected_in, expected_out):
    r = _Recorder()
    inputs = tuple(numpy.array([1.5, -2], dtype=d) for d in dtypes)
    y, none, ints = r.forward(inputs)
    assert r.seen == expected_in
    assert y.dtype == expected_out and none is None and ints.dtype == numpy.arange(2).dtype
    numpy.testing.assert_array_equal(y, [3, -4])
    assert _Recorder.forward.__name__ == 'forward'


def test_format_array_props():
    arrays = [numpy.zeros((2, 3), numpy.float32), None, numpy.zeros((), numpy.int64)]
    assert error._format_array_props(arrays) == '(2, 3):float32, None, ():int64'
    assert utils._format_array_props(()) == ''
    with pytest.raises(TypeError, match='list or tuple'):
        error._format_array_props(numpy.zeros(2))


def test_ordered_dict_alias():
    assert _collections.OrderedDict is collections.OrderedDict


def _oversample_reference(images, crop_dims):
    h, w = crop_dims
    out = []
    for img in images:
        _, H, W = img.shape
        starts = [(0, 0), (0, W - w), (H - h, 0), (H - h, W - w),
                  (int(H / 2 - h / 2), int(W / 2 - w / 2))]
        crops = [img[:, a:a + h, b:b + w] for a, b in starts]
        out.extend(crops + [c[:, :, ::-1] for c in crops])
    return numpy.stack(out)


@pytest.mark.parametrize('shape, crop', [((2, 5, 6), (3, 2)), ((1, 4, 4), (4, 4)),
                                         ((3, 7, 5), (2, 3))])
def test_oversample(shape, crop):
    rng = numpy.random.RandomState(0)
    images = [rng.rand(*shape).astype(numpy.float32) for _ in range(2)]
    crops = imgproc.oversample(images, crop)
    assert crops.shape == (20, shape[0]) + crop and crops.dtype == numpy.float32
    numpy.testing.assert_array_equal(crops, _oversample_reference(images, crop))


def test_oversample_bad_crop():
    with pytest.raises(ValueError, match=r'crop_dims must .*\(4x4\), got \(5, 2\)'):
        imgproc.oversample([numpy.zeros((1, 4, 4))], (5, 2))


def test_chainer_utils_exports():
    from minichainer.utils import array, conv
    assert utils.sum_to is array.sum_to
    assert utils.get_conv_outsize is conv.get_conv_outsize
    assert utils.get_deconv_outsize is conv.get_deconv_outsize
    assert callable(utils.experimental) and callable(utils.enable_final)

def test_collections_abc_alias():
    import collections.abc
    assert utils.collections_abc is collections.abc


def test_tempdir_is_removed_on_exit():
    import os
    with utils.tempdir(prefix='mc-') as path:
        assert os.path.isdir(path) and os.path.basename(path).startswith('mc-')
        open(os.path.join(path, 'f'), 'w').close()
    assert not os.path.exists(path)


def test_force_array_wraps_scalars_and_passes_other_objects_through():
    # As Chainer: a NumPy scalar becomes a 0-d array; a Variable (what a backward written
    # with Variables gives) is returned as it is, not boxed into an object array.
    out = utils.force_array(numpy.float32(2) * numpy.float32(3))
    assert isinstance(out, numpy.ndarray) and out.dtype == numpy.float32 and out.shape == ()
    assert utils.force_array(numpy.float64(1), numpy.float16).dtype == numpy.float16
    v = minichainer.Variable(numpy.ones(2, numpy.float32))
    assert utils.force_array(v) is v
    assert utils.force_array(None) is None
    numpy.testing.assert_array_equal(utils.force_array([1, 2]), [1, 2])
