"""Round trips of the array converters through ONNX Runtime.

Each case exports a one-function model at every opset from the oldest to the newest
(fewer where the converter needs a newer one), checks the model with
`onnx.checker.check_model(full_check=True)` and compares ONNX Runtime's outputs with
minichainer's forward. Array functions move values without arithmetic, so their
outputs must be equal (rtol 0, atol 0) unless a case says otherwise.
"""
import warnings

import numpy
import pytest

onnx = pytest.importorskip('onnx')
ort = pytest.importorskip('onnxruntime')

import minichainer  # noqa: E402
import minichainer.functions as F  # noqa: E402
from minichainer.onnx import export  # noqa: E402
from minichainer.onnx.export import MAXIMUM_OPSET_VERSION  # noqa: E402
from minichainer.onnx.export import MINIMUM_OPSET_VERSION  # noqa: E402

from _onnx_roundtrip import _session, arrays as _arrays  # noqa: E402
from _onnx_roundtrip import roundtrip_function  # noqa: E402

MIN, MAX = MINIMUM_OPSET_VERSION, MAXIMUM_OPSET_VERSION
#: every opset; the signatures of the operators these converters emit change at 9
#: (Where, Scatter), 10 (Slice), 11 (Pad, Clip, Resize, GatherND, ScatterElements),
#: 13 (Squeeze, Unsqueeze, Split, ReduceSum), 14 (Reshape's allowzero), 18 (Reduce*),
#: 19 (Pad's wrap mode)
CHANGES = list(range(MIN, MAX + 1))


def roundtrip(fn, *args, rtol=0, atol=0, **kwargs):
    """`roundtrip_function` with this file's default tolerance."""
    return roundtrip_function(fn, *args, rtol=rtol, atol=atol, **kwargs)


def _x(*shape, dtype=numpy.float32):
    return numpy.asarray(numpy.arange(numpy.prod(shape), dtype=numpy.float64).reshape(shape)
                         * 0.5 - 3).astype(dtype)


# -- layout functions ------------------------------------------------------------------

@pytest.mark.parametrize('fn, shape, ops', [
    (lambda x: F.reshape(x, (4, -1, 2)), (2, 3, 4), ['Reshape']),
    (lambda x: F.transpose(x), (2, 3, 4), ['Transpose']),
    (lambda x: F.transpose(x, (1, -1, 0)), (2, 3, 4), ['Transpose']),
    (lambda x: F.swapaxes(x, -3, -1), (2, 3, 4), ['Transpose']),
    (lambda x: F.moveaxis(x, (0, 3), (2, 0)), (2, 3, 4, 5), ['Transpose']),
    (lambda x: F.moveaxis(x, -1, 1), (2, 3, 4, 5), ['Transpose']),
    (lambda x: F.rollaxis(x, -1, 1), (2, 3, 4, 5), ['Transpose']),
    (lambda x: F.rollaxis(x, 1, 4), (2, 3, 4, 5), ['Transpose']),
    (lambda x: F.squeeze(x), (1, 3, 1, 2), ['Squeeze']),
    (lambda x: F.squeeze(x, (-1, 2)), (1, 3, 1, 2, 1), ['Squeeze']),
    (lambda x: F.expand_dims(x, -1), (2, 3), ['Unsqueeze']),
    (lambda x: F.expand_dims(x, 1), (2, 3), ['Unsqueeze']),
    (lambda x: F.flatten(x), (2, 3, 4), ['Reshape']),
    (lambda x: F.depth2space(x, 2), (1, 12, 2, 3), ['DepthToSpace']),
    (lambda x: F.space2depth(x, 2), (1, 3, 4, 6), ['SpaceToDepth']),
    (lambda x: F.copy(x, -1), (2, 3), ['Identity']),
    (lambda x: F.cast(x, numpy.float64), (2, 3), ['Cast']),
    (lambda x: F.cast(x, numpy.float16), (2, 3), ['Cast']),
    (lambda x: F.cast(x, numpy.int32), (2, 3), ['Cast']),
    (lambda x: F.tile(x, 2), (2, 3), ['Tile']),
    (lambda x: F.tile(x, (2, 1, 3)), (2, 3), ['Tile', 'Unsqueeze']),
    (lambda x: F.tile(x, (2,)), (2, 3, 2), ['Tile']),
    (lambda x: F.repeat(x, 2), (2, 3), ['Gather']),
    (lambda x: F.repeat(x, 3, axis=-1), (2, 3), ['Gather']),
    (lambda x: F.repeat(x, (1, 0, 2), axis=1), (2, 3), ['Gather']),
    (lambda x: F.flip(x, -1), (2, 3, 4), None),
    (lambda x: F.fliplr(x), (2, 3), None),
    (lambda x: F.flipud(x), (2, 3), None),
    (lambda x: F.broadcast_to(x, (2, 2, 3)), (2, 1), None),
    (lambda x: F.broadcast_to(x, (2, 3)), (2, 3), ['Identity']),
])
def test_layout(fn, shape, ops):
    roundtrip(fn, _x(*shape), ops=ops)


def test_broadcast_multiple_outputs():
    roundtrip(lambda a, b: F.broadcast(a, b), _x(2, 1), _x(3), opsets=range(8, MAX + 1, 5))


def test_flip_gathers_before_opset_10():
    model = roundtrip(lambda x: F.flip(x, 1), _x(2, 3), opsets=[9])
    assert 'Gather' in {n.op_type for n in model.graph.node}


# -- concatenation and splitting ---------------------------------------------------------

def test_concat():
    roundtrip(lambda a, b, c: F.concat((a, b, c), axis=-1), _x(2, 5), _x(2, 4), _x(2, 1),
              ops=['Concat'])


@pytest.mark.parametrize('kwargs, n', [
    ({'indices_or_sections': 2, 'axis': 1}, 2),
    ({'indices_or_sections': [1, 4], 'axis': -1}, 3),
    ({'indices_or_sections': [2, 2, 5], 'axis': 1}, 4),    # an empty piece
    ({'indices_or_sections': 1, 'axis': 0, 'force_tuple': True}, 1),
])
def test_split_axis(kwargs, n):
    def fn(x):
        ys = F.split_axis(x, **kwargs)
        assert len(ys) == n
        return ys
    if n == 4:
        # ONNX Runtime splits into empty pieces only from opset 13 (split as an input)
        roundtrip(fn, _x(2, 6), opsets=[13, MAX])
    else:
        roundtrip(fn, _x(2, 6))


@pytest.mark.parametrize('shape, axis', [((2, 3), 0), ((2, 3), -1), ((1, 2, 3), 0)])
def test_separate(shape, axis):
    roundtrip(lambda x: F.separate(x, axis), _x(*shape))


@pytest.mark.parametrize('name, shapes, kwargs', [
    ('stack', [(3, 4), (3, 4)], {}),
    ('stack', [(3, 4), (3, 4), (3, 4)], {'axis': 2}),
    ('stack', [(3, 4), (3, 4)], {'axis': -1}),
    ('hstack', [(), ()], {}),
    ('hstack', [(3,), (2,)], {}),
    ('hstack', [(3, 4), (3, 2)], {}),
    ('vstack', [(), ()], {}),
    ('vstack', [(3,), (3,)], {}),
    ('vstack', [(3, 4), (2, 4)], {}),
    ('dstack', [(), ()], {}),
    ('dstack', [(3,), (3,)], {}),
    ('dstack', [(3, 2), (3, 2)], {}),
    ('dstack', [(3, 2, 2), (3, 2, 1)], {}),
])
def test_stacks(name, shapes, kwargs):
    fn = getattr(F, name)
    roundtrip(lambda *xs: fn(xs, **kwargs), *[_x(*s) for s in shapes])


@pytest.mark.parametrize('shapes', [[(3, 4)], [(1, 3), (1, 3)], [(2, 3)] * 4])
def test_transpose_sequence(shapes):
    roundtrip(lambda *xs: F.transpose_sequence(xs), *[_x(*s) for s in shapes])


def test_transpose_sequence_of_unequal_lengths_is_refused():
    model = minichainer.Sequential(lambda a, b: F.transpose_sequence((a, b)))
    with pytest.raises(ValueError, match='one length'):
        export(model, [_x(3, 2), _x(2, 2)])


# -- pad ----------------------------------------------------------------------------------

@pytest.mark.parametrize('pad_width, mode, kwargs', [
    (((0, 0), (0, 0), (2, 2), (2, 2)), 'constant', {}),
    (((1, 3), (2, 0), (7, 1), (4, 4)), 'constant', {}),
    (2, 'constant', {}),
    ((1, 2), 'constant', {'constant_values': -1.5}),
    (((0, 0), (0, 0), (2, 1), (2, 2)), 'reflect', {}),
    (((0, 0), (1, 0), (2, 1), (3, 2)), 'edge', {}),
])
def test_pad(pad_width, mode, kwargs):
    roundtrip(lambda x: F.pad(x, pad_width, mode, **kwargs), _x(1, 2, 3, 4), ops=['Pad'])


def test_pad_wrap_from_opset_19():
    x = _x(2, 3)
    roundtrip(lambda x: F.pad(x, ((1, 2), (2, 1)), 'wrap'), x, opsets=[19, MAX])
    model = minichainer.Sequential(lambda x: F.pad(x, 1, 'wrap'))
    with pytest.raises(ValueError, match='wrap'):
        export(model, x, opset_version=18)


def test_pad_several_constant_values_is_refused():
    model = minichainer.Sequential(
        lambda x: F.pad(x, 1, 'constant', constant_values=((1, 2), (3, 4))))
    with pytest.raises(ValueError, match='constant value'):
        export(model, _x(2, 3))


# -- get_item ----------------------------------------------------------------------------

BASIC_SLICES = [
    slice(0, 2), slice(1), slice(1, None), 0, -1, -2, numpy.array(1), numpy.int64(1),
    (None, slice(0, 2)), (Ellipsis, slice(0, 2)), (Ellipsis, None),
    (slice(None), slice(0, 1), slice(None, 2)), (Ellipsis,), (slice(None),),
]
STEP_SLICES = [
    (slice(1, None, 1),), (slice(None), slice(None, 4, 2)), (slice(None, None, -1),),
    (slice(None), slice(4, None, -2)), (slice(None), slice(-1, 0, -1)),
    (Ellipsis, slice(None, None, -3)), (slice(None, None, 2), -1, slice(3, 0, -2)),
    (slice(1, None), [2, 0], slice(None, None, -1)),
]
ADVANCED_SLICES = [
    ([[0, 1], [0, 1]],),
    (slice(None), [[0, 1], [1, 2]], slice(None)),
    (slice(None), slice(None), [[0, 1], [1, 2]]),
    (Ellipsis, numpy.array([[0, -1], [1, 2]])),
    (slice(None), 0, [[0, 1], [2, 3]]),
    (slice(None), [[0, 1], [1, 2]], 0),
    (slice(None), None, [[0, 1], [1, 2]], slice(None)),
    (0, slice(None), [1, 3]),                       # NumPy puts [1, 3]'s axis first
    (0, None, [1, 2]),
    (numpy.array([True, False]),),
    (slice(None), numpy.array([True, False, True])),
]
GATHER_ND_SLICES = [
    [[0, 1], [1, 2]], [[0, 1], [0, 1], slice(None)], [[0, 1], [0, 1], [2, 3]],
    [0, [0, 1], [2, 3]], [[0, 1], [0, 2], 0], [[0, 1], [0, 2], None],
    (numpy.array([[True, False, True], [False, True, False]]),),
]


@pytest.mark.parametrize('slices', BASIC_SLICES + ADVANCED_SLICES)
def test_get_item(slices):
    x = _x(2, 3, 4)
    if len(numpy.shape(x[slices])) > 5:
        x = _x(2, 2, 3, 3, 3, 4)
    roundtrip(lambda x: F.get_item(x, slices), x)


def test_get_item_of_many_axes():
    x = _x(2, 2, 3, 3, 3, 4)
    roundtrip(lambda x: F.get_item(x, (0, None, Ellipsis, 0, None, slice(0, 2), None, 0)),
              x)


@pytest.mark.parametrize('slices', STEP_SLICES)
def test_get_item_with_steps(slices):
    roundtrip(lambda x: F.get_item(x, slices), _x(2, 3, 5),
              opsets=[o for o in CHANGES if o >= 10])
    if any(isinstance(s, slice) and s.step not in (None, 1) for s in slices):
        model = minichainer.Sequential(lambda x: F.get_item(x, slices))
        with pytest.raises(ValueError, match='opset 10'):
            export(model, _x(2, 3, 5), opset_version=9)


@pytest.mark.parametrize('slices', GATHER_ND_SLICES)
def test_get_item_gather_nd(slices):
    roundtrip(lambda x: F.get_item(x, slices), _x(2, 3, 4),
              opsets=[o for o in CHANGES if o >= 11], ops=['GatherND'])
    model = minichainer.Sequential(lambda x: F.get_item(x, slices))
    with pytest.raises(ValueError, match='opset 11'):
        export(model, _x(2, 3, 4), opset_version=10)


@pytest.mark.parametrize('slices, message', [
    ([[0, 1], 0, [0, 1]], 'non-consecutive'),
    ([slice(None), [0, 1], [0, 1]], 'slicing in front'),
    ([slice(1, 2), [0, 1], [0, 1]], 'slicing in front'),
    ([None, [0, 1], [0, 1]], 'new axis'),
])
def test_get_item_unsupported_advanced_indexing(slices, message):
    model = minichainer.Sequential(lambda x: F.get_item(x, slices))
    with pytest.raises(ValueError, match=message):
        export(model, _x(2, 3, 4))


# -- select_item, where, permutate ---------------------------------------------------------

def test_select_item():
    t = numpy.array([4, 1, 0], dtype=numpy.int32)
    model = roundtrip(F.select_item, _x(3, 5), t)
    assert 'GatherElements' in {n.op_type for n in model.graph.node}
    roundtrip(F.select_item, _x(3, 5), t.astype(numpy.int64), opsets=[MIN, 10])


def test_where_with_the_condition_as_input():
    cond = numpy.array([[1, 0, 0], [0, 1, 0]], dtype=bool)
    roundtrip(F.where, cond, _x(2, 3), numpy.zeros((2, 3), numpy.float32),
              opsets=[o for o in CHANGES if o >= 9], ops=['Where'])
    with pytest.raises(RuntimeError, match='opset'):
        export(minichainer.Sequential(F.where),
               [cond, _x(2, 3), numpy.zeros((2, 3), numpy.float32)], opset_version=8)


def test_where_with_a_constant_condition():
    cond = numpy.array([True, False, True])
    roundtrip(lambda x, y: F.where(cond, x, y), _x(2, 3), _x(2, 3) * 2,
              opsets=[9, MAX])


@pytest.mark.parametrize('axis, inv', [(0, False), (0, True), (1, False), (1, True)])
def test_permutate_with_the_indices_as_input(axis, inv):
    x = numpy.arange(6, dtype=numpy.float32).reshape(3, 2)
    indices = numpy.array([1, 0] if axis == 1 else [2, 0, 1], numpy.int32)
    roundtrip(lambda x, i: F.permutate(x, i, axis=axis, inv=inv), x, indices,
              opsets=[o for o in CHANGES if o >= 9])


@pytest.mark.parametrize('inv', [False, True])
def test_permutate_with_constant_indices(inv):
    indices = numpy.array([2, 3, 0, 1], numpy.int32)
    roundtrip(lambda x: F.permutate(x, indices, axis=1, inv=inv), _x(3, 4),
              opsets=[MIN, 11, MAX])


# -- resize_images -------------------------------------------------------------------------

@pytest.mark.parametrize('in_hw, out_hw', [((2, 2), (4, 4)), ((3, 5), (7, 4)),
                                           ((6, 4), (3, 2)), ((4, 3), (4, 3)),
                                           ((3, 3), (1, 5))])
@pytest.mark.parametrize('mode, align_corners', [('bilinear', True), ('bilinear', False),
                                                 ('nearest', True)])
def test_resize_images_is_exact_from_opset_11(in_hw, out_hw, mode, align_corners):
    x = numpy.random.RandomState(0).uniform(-1, 1, (2, 3) + in_hw).astype(numpy.float32)
    # interpolation weights computed in float32 by ONNX Runtime, float64 by minichainer
    roundtrip(lambda x: F.resize_images(x, out_hw, mode=mode, align_corners=align_corners),
              x, opsets=[11, 13, 18, 19, MAX], rtol=1e-5, atol=1e-6, ops=['Resize'])


def test_resize_images_warns_before_opset_11():
    x = numpy.array([[[[64, 32], [64, 32]]]], numpy.float32)
    model = minichainer.Sequential(lambda x: F.resize_images(x, (4, 4)))
    for opset in (7, 9, 10):
        with pytest.warns(UserWarning, match='opset 11'):
            model_proto = export(model, x, opset_version=opset)
        onnx.checker.check_model(model_proto, full_check=True)
        y = _session(model_proto).run(None, {model_proto.graph.input[0].name: x})[0]
        assert y.shape == (1, 1, 4, 4)


def test_resize_images_nearest_upsampling_before_opset_11():
    x = _x(1, 2, 2, 3)
    roundtrip(lambda x: F.resize_images(x, (4, 6), mode='nearest'), x, opsets=[7, 9, 10])


# -- dynamic batch ---------------------------------------------------------------------------

def dynamic_batch_roundtrip(fn, x, opsets=(MIN, 13, MAX), batches=(1, 5), rtol=0, atol=0):
    """Export `fn` with a named first input axis and run the file at other batch sizes."""
    model = minichainer.Sequential(fn)
    for opset in opsets:
        model_proto = export(model, x, opset_version=opset,
                             input_shapes=[('b',) + x.shape[1:]])
        onnx.checker.check_model(model_proto, full_check=True)
        for b in batches:
            xb = numpy.random.RandomState(b).standard_normal(
                (b,) + x.shape[1:]).astype(x.dtype)
            actual = _session(model_proto).run(None, {model_proto.graph.input[0].name: xb})
            for a, e in zip(actual, _arrays(fn(xb))):
                assert a.shape == e.shape, (opset, b, a.shape, e.shape)
                numpy.testing.assert_allclose(a, e, rtol=rtol, atol=atol)


def test_dynamic_batch_reshape_and_broadcast_to():
    def fn(x):
        n = x.shape[0]
        h = F.reshape(x, (n, -1))                       # the batch copied, not baked
        h = h + F.broadcast_to(F.max(h, axis=1, keepdims=True), h.shape)
        return F.reshape(F.get_item(h, (slice(None), slice(1, None, 2))), (n, 2, -1))
    dynamic_batch_roundtrip(fn, _x(2, 3, 4), opsets=(10, 13, MAX))


def test_dynamic_batch_layout_functions():
    def fn(x):
        h = F.transpose(F.expand_dims(x, 1), (0, 2, 1, 3))
        h = F.concat((F.squeeze(h, 2), F.flip(x, 2)), axis=2)
        h = F.pad(F.tile(h, (1, 2)), ((0, 0), (1, 0), (0, 2)), 'edge')
        return F.stack(F.split_axis(h, 2, axis=1), axis=1)
    dynamic_batch_roundtrip(fn, _x(2, 3, 4))


def test_dynamic_batch_resize_images():
    dynamic_batch_roundtrip(lambda x: F.resize_images(x, (5, 7)), _x(2, 3, 4, 4),
                            opsets=(11, 13, MAX), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize('fn, opset', [
    (lambda x: F.repeat(x, 2, axis=0), MAX),
    (lambda x: F.separate(x, 0)[0], MAX),
    (lambda x: F.split_axis(x, 2, 0)[1], MAX),
    (lambda x: F.flip(x, 0), 9),
    (lambda x: F.select_item(x, numpy.array([0, 1], numpy.int32)), 10),
])
def test_dynamic_batch_fixed_by_a_function_warns(fn, opset):
    model = minichainer.Sequential(fn)
    with pytest.warns(UserWarning, match='batch size 2 is fixed'):
        export(model, _x(2, 3), opset_version=opset, input_shapes=[('b', 3)])
    with warnings.catch_warnings():
        warnings.simplefilter('error', UserWarning)
        export(model, _x(2, 3), opset_version=opset)


@pytest.mark.parametrize('length, padding', [(None, 0), (5, -1.5)])
def test_pad_sequence(length, padding):
    xs = [_x(3, 2), _x(1, 2), _x(4, 2)]
    roundtrip(lambda *xs: F.pad_sequence(xs, length, padding), *xs, ops=['Pad', 'Concat'])


def test_dynamic_batch_broadcast():
    bias = _x(1, 3)
    dynamic_batch_roundtrip(lambda x: F.broadcast(x, bias)[1] * 2 + F.broadcast(x, bias)[0],
                            _x(2, 3), opsets=(8, 13, MAX))


@pytest.mark.parametrize('shape, offset, axis1, axis2', [
    ((3, 4), 0, 0, 1), ((3, 4), 1, 0, 1), ((3, 4), -2, 0, 1),
    ((2, 3, 4), 0, 2, 1), ((2, 3, 4, 5), -1, -1, 1),
])
def test_diagonal(shape, offset, axis1, axis2):
    roundtrip(lambda x: F.diagonal(x, offset, axis1, axis2), _x(*shape),
              opsets=range(11, MAX + 1), ops=['GatherND'])
