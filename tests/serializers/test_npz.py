"""NPZ serializers: Chainer's key layout, None entries, errors, atomic writes, rollback."""
import io
import os
import pickle
import zipfile

import numpy
import pytest

import minichainer as mc
import minichainer.links as L
from minichainer import optimizers
from minichainer import serializers
from minichainer.serializers import npz

FIXTURES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                        'fixtures')


class MLP(mc.Chain):
    def __init__(self, n_in=3, n_hidden=4, n_out=2):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(n_in, n_hidden)
            self.l2 = L.Linear(n_hidden, n_out)

    def forward(self, x):
        return self.l2(mc.functions.relu(self.l1(x)))


class Holder:
    """An object with a scalar, a string, a bool, an array and a None."""

    def __init__(self):
        self.n = 3
        self.x = 1.5
        self.name = 'abc'
        self.flag = True
        self.arr = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)
        self.nothing = None

    def serialize(self, s):
        self.n = s('n', self.n)
        self.x = s('x', self.x)
        self.name = s('name', self.name)
        self.flag = s('flag', self.flag)
        self.arr = s('arr', self.arr)
        self.nothing = s('nothing', self.nothing)


class FakeUpdater:
    """StandardUpdater's serialization layout (iterator omitted)."""

    def __init__(self, model, opt):
        self.model, self.opt, self.iteration = model, opt, 0

    def serialize(self, s):
        self.opt.serialize(s['optimizer:main'])
        self.model.serialize(s['model:main'])
        self.iteration = s('iteration', self.iteration)


class FakeTrainer:
    def __init__(self, updater):
        self.updater = updater

    def serialize(self, s):
        self.updater.serialize(s['updater'])


def _trained_classifier(steps=2):
    numpy.random.seed(0)
    model = L.Classifier(MLP())
    opt = optimizers.Adam().setup(model)
    rng = numpy.random.RandomState(1)
    for _ in range(steps):
        x = rng.standard_normal((5, 3)).astype(numpy.float32)
        t = rng.randint(0, 2, 5).astype(numpy.int32)
        opt.update(model, x, t)
    return model, opt


def test_model_keys_are_chainers(tmp_path):
    model, opt = _trained_classifier()
    path = tmp_path / 'model.npz'
    serializers.save_npz(str(path), model)
    with numpy.load(path) as f:
        assert sorted(f.files) == ['predictor/l1/W', 'predictor/l1/b',
                                   'predictor/l2/W', 'predictor/l2/b']
        numpy.testing.assert_array_equal(f['predictor/l1/W'], model.predictor.l1.W.array)
    model2 = L.Classifier(MLP())
    serializers.load_npz(str(path), model2)
    for (n, p), (n2, p2) in zip(model.namedparams(), model2.namedparams()):
        assert n == n2
        numpy.testing.assert_array_equal(p.array, p2.array)


def test_trainer_layout_with_optimizer_state(tmp_path):
    model, opt = _trained_classifier()
    trainer = FakeTrainer(FakeUpdater(model, opt))
    trainer.updater.iteration = 2
    path = tmp_path / 'snapshot_iter_2'
    serializers.save_npz(path, trainer)
    with numpy.load(path) as f:
        files = set(f.files)
        assert int(f['updater/optimizer:main/t']) == 2
        numpy.testing.assert_array_equal(
            f['updater/optimizer:main/predictor/l1/W/m'],
            model.predictor.l1.W.update_rule.state['m'])
    assert {'updater/iteration', 'updater/optimizer:main/epoch',
            'updater/optimizer:main/predictor/l1/W/t',
            'updater/optimizer:main/predictor/l1/W/v',
            'updater/model:main/predictor/l2/b'} <= files

    model2 = L.Classifier(MLP())
    opt2 = optimizers.Adam().setup(model2)
    trainer2 = FakeTrainer(FakeUpdater(model2, opt2))
    serializers.load_npz(path, trainer2)
    assert trainer2.updater.iteration == 2 and opt2.t == 2
    numpy.testing.assert_array_equal(model2.predictor.l2.W.update_rule.state['v'],
                                     model.predictor.l2.W.update_rule.state['v'])
    # the optimizer alone, from inside the snapshot, with path=
    opt3 = optimizers.Adam().setup(L.Classifier(MLP()))
    serializers.load_npz(path, opt3, path='updater/optimizer:main/')
    assert opt3.t == 2
    model4 = L.Classifier(MLP())
    serializers.load_npz(path, model4, path='updater/model:main')  # no trailing slash
    numpy.testing.assert_array_equal(model4.predictor.l1.W.array,
                                     model.predictor.l1.W.array)


def test_checked_in_chainer_layout_fixture_loads():
    path = os.path.join(FIXTURES, 'chainer7_mlp_snapshot.npz')
    model = L.Classifier(MLP())
    opt = optimizers.Adam().setup(model)
    trainer = FakeTrainer(FakeUpdater(model, opt))
    serializers.load_npz(path, trainer)
    assert opt.t == 3 and opt.epoch == 1 and trainer.updater.iteration == 3
    rule = model.predictor.l1.W.update_rule
    assert rule.t == 3 and set(rule.state) == {'m', 'v'}
    with numpy.load(path) as f:
        numpy.testing.assert_array_equal(model.predictor.l2.W.array,
                                         f['updater/model:main/predictor/l2/W'])
        numpy.testing.assert_array_equal(rule.state['m'],
                                         f['updater/optimizer:main/predictor/l1/W/m'])
    # the None entry of the iterator (its order) reads back as None
    with numpy.load(path, allow_pickle=False) as f:
        d = serializers.NpzDeserializer(f, path='updater/iterator:main/')
        assert d('order', numpy.arange(3)) is None
        assert d('current_position', 0) == 4
        assert d('is_new_epoch', True) is False
    # and it continues training
    x = numpy.ones((2, 3), numpy.float32)
    opt.update(model, x, numpy.zeros(2, numpy.int32))
    assert opt.t == 4 and rule.t == 4


def test_none_is_saved_as_chainer_does_and_loads_without_pickle(tmp_path):
    h = Holder()
    path = tmp_path / 'h.npz'
    serializers.save_npz(path, h)
    with zipfile.ZipFile(path) as z:
        raw = z.read('nothing.npy')
    assert b"'descr': '|O'" in raw and b"'shape': ()" in raw
    with numpy.load(path, allow_pickle=True) as f:  # what Chainer 7 does
        assert f['nothing'][()] is None
        assert f['n'].dtype == numpy.int64 and f['name'] == 'abc'
    h2 = Holder()
    h2.n, h2.x, h2.name, h2.flag, h2.nothing = 0, 0.0, '', False, 'something'
    h2.arr[...] = 0
    arr_before = h2.arr
    serializers.load_npz(path, h2)
    assert (h2.n, h2.x, h2.name, h2.flag, h2.nothing) == (3, 1.5, 'abc', True, None)
    assert type(h2.n) is int and type(h2.flag) is bool
    assert h2.arr is arr_before  # copied in place
    numpy.testing.assert_array_equal(h2.arr, h.arr)


def test_none_written_by_numpy2_savez_also_loads():
    buf = io.BytesIO()
    numpy.savez(buf, nothing=numpy.asarray(None), n=numpy.asarray(3))
    buf.seek(0)
    h = Holder()
    h.nothing = 5
    serializers.load_npz(buf, h, strict=False)
    assert h.nothing is None and h.n == 3


def test_other_pickles_are_refused():
    class Evil:
        def __reduce__(self):
            return (os.system, ('echo pwned',))

    buf = io.BytesIO()
    numpy.savez(buf, nothing=numpy.asarray([Evil()], dtype=object))
    buf.seek(0)
    h = Holder()
    with pytest.raises(ValueError, match="'nothing'.*never loaded"):
        serializers.load_npz(buf, h, strict=False)
    buf = io.BytesIO()
    evil0d = numpy.empty((), dtype=object)
    evil0d[()] = Evil()
    numpy.savez(buf, nothing=evil0d)
    buf.seek(0)
    with pytest.raises(ValueError, match="refusing to unpickle"):
        serializers.load_npz(buf, Holder(), strict=False)
    buf = io.BytesIO()
    numpy.savez(buf, nothing=numpy.asarray({'a': 1}, dtype=object))
    buf.seek(0)
    with pytest.raises(ValueError, match="'nothing'"):
        serializers.load_npz(buf, Holder(), strict=False)


def test_saving_object_arrays_is_refused(tmp_path):
    with pytest.raises(TypeError, match="'bad'.*object array"):
        serializers.save_npz(tmp_path / 'x.npz', {'bad': numpy.asarray([1, 'a', None],
                                                                        dtype=object)})
    assert not os.listdir(tmp_path)  # no partial or temporary file left


def test_missing_key_strict_and_non_strict():
    buf = io.BytesIO()
    serializers.save_npz(buf, {'predictor/l1/W': numpy.zeros((4, 3), numpy.float32)})
    buf.seek(0)
    model = L.Classifier(MLP())
    with pytest.raises(KeyError, match="'predictor/l1/b' not found"):
        serializers.load_npz(buf, model)
    buf.seek(0)
    serializers.load_npz(buf, model, strict=False)
    numpy.testing.assert_array_equal(model.predictor.l1.W.array, 0)
    assert numpy.abs(model.predictor.l2.W.array).sum() > 0


def test_shape_mismatch_names_the_parameter_and_both_shapes():
    buf = io.BytesIO()
    serializers.save_npz(buf, MLP(3, 5, 2))
    buf.seek(0)
    with pytest.raises(ValueError) as e:
        serializers.load_npz(buf, MLP(3, 4, 2))
    message = str(e.value)
    assert "'l1/W'" in message and '(5, 3)' in message and '(4, 3)' in message


def test_failed_load_leaves_links_and_optimizers_unchanged():
    model, opt = _trained_classifier()
    good_model, good_opt = npz.serialize(model), npz.serialize(opt)
    other_model, other_opt = _trained_classifier(steps=3)
    bad_model, bad_opt = npz.serialize(other_model), npz.serialize(other_opt)
    del bad_model['predictor/l2/b']          # the last parameter is missing
    del bad_opt['predictor/l2/b/v']          # and the last state entry
    for obj, bad, good, missing in [(model, bad_model, good_model, 'predictor/l2/b'),
                                    (opt, bad_opt, good_opt, 'predictor/l2/b/v')]:
        buf = io.BytesIO()
        serializers.save_npz(buf, bad)
        buf.seek(0)
        with pytest.raises(KeyError, match=missing):
            serializers.load_npz(buf, obj)
        after = npz.serialize(obj)
        assert sorted(after) == sorted(good)
        for key in good:
            numpy.testing.assert_array_equal(after[key], good[key], err_msg=key)
    assert opt.t == 2


def test_other_objects_are_serialized_once_as_in_chainer():
    calls = []

    class Obj:
        def serialize(self, s):
            calls.append(type(s).__name__)
            s('x', 0)

    buf = io.BytesIO()
    serializers.save_npz(buf, {'x': numpy.asarray(1)})
    buf.seek(0)
    serializers.load_npz(buf, Obj())
    assert calls == ['NpzDeserializer']


def test_ignore_names():
    buf = io.BytesIO()
    src = MLP()
    serializers.save_npz(buf, src)
    dst = MLP()
    w_before = dst.l1.W.array.copy()
    b_before = dst.l2.b.array.copy()
    buf.seek(0)
    serializers.load_npz(buf, dst, ignore_names=['l1/W', lambda key: key.endswith('2/b')])
    numpy.testing.assert_array_equal(dst.l1.W.array, w_before)
    numpy.testing.assert_array_equal(dst.l2.b.array, b_before)
    numpy.testing.assert_array_equal(dst.l2.W.array, src.l2.W.array)
    buf.seek(0)
    with pytest.raises(ValueError, match='ignore_names'):
        serializers.load_npz(buf, dst, ignore_names=[3])


def test_lazy_parameters_save_none_and_initialize_on_load():
    lazy = L.Linear(None, 2)
    d = npz.serialize(lazy)
    assert d['W'].dtype == object and d['W'][()] is None
    buf = io.BytesIO()
    serializers.save_npz(buf, lazy)
    buf.seek(0)
    lazy2 = L.Linear(None, 2)
    serializers.load_npz(buf, lazy2)
    assert lazy2.W.array is None  # stays uninitialized

    trained = L.Linear(3, 2)
    buf = io.BytesIO()
    serializers.save_npz(buf, trained)
    buf.seek(0)
    lazy3 = L.Linear(None, 2)
    serializers.load_npz(buf, lazy3)
    assert lazy3.W.shape == (2, 3)
    numpy.testing.assert_array_equal(lazy3.W.array, trained.W.array)


def test_unsafe_scalar_cast_raises_type_error():
    with pytest.raises(TypeError, match='safely deserialize'):
        serializers.NpzDeserializer({'n': numpy.asarray(2.5)})('n', 1)
    assert serializers.NpzDeserializer({'x': numpy.asarray(2)})('x', 1.0) == 2.0


def test_dictionary_serializer_paths_and_copies():
    target = {}
    s = serializers.DictionarySerializer(target)
    arr = numpy.ones(2)
    assert s['/a/']['b']('/c', arr) is arr
    s('top', None)
    assert set(target) == {'a/b/c', 'top'}
    arr[0] = 5
    assert target['a/b/c'][0] == 1  # a snapshot, not a view of the live array
    assert target['top'][()] is None


def test_save_npz_is_atomic(tmp_path):
    path = tmp_path / 'model.npz'
    serializers.save_npz(path, MLP())
    before = path.read_bytes()

    class Broken:
        def serialize(self, s):
            s('a', numpy.zeros(3))
            s('b', numpy.asarray([object()], dtype=object))

    with pytest.raises(TypeError):
        serializers.save_npz(path, Broken())
    assert path.read_bytes() == before
    assert os.listdir(tmp_path) == ['model.npz']


def test_compression_flag_and_file_objects(tmp_path):
    big = {'w': numpy.zeros((100, 100), numpy.float32)}
    serializers.save_npz(tmp_path / 'c.npz', big)
    serializers.save_npz(tmp_path / 'u.npz', big, compression=False)
    assert os.path.getsize(tmp_path / 'c.npz') < os.path.getsize(tmp_path / 'u.npz')
    with zipfile.ZipFile(tmp_path / 'u.npz') as z:
        assert z.getinfo('w.npy').compress_type == zipfile.ZIP_STORED
    with open(tmp_path / 'f.npz', 'wb') as f:
        serializers.save_npz(f, big)
    with numpy.load(tmp_path / 'f.npz') as f:
        numpy.testing.assert_array_equal(f['w'], big['w'])


def test_load_rejects_npy_files(tmp_path):
    numpy.save(tmp_path / 'a.npy', numpy.zeros(3))
    with pytest.raises(ValueError, match='not an NPZ archive'):
        serializers.load_npz(tmp_path / 'a.npy', MLP())


def test_none_marker_bytes_are_a_numpy1_compatible_pickle():
    value = pickle.loads(npz._NONE_PICKLE)
    assert value.dtype == object and value.shape == () and value[()] is None
    assert b'numpy.core.multiarray' in npz._NONE_PICKLE
    assert npz._NONE_PICKLE[:2] == b'\x80\x03'


@pytest.mark.parametrize('compress', [False, True])
def test_mock_objects_like_chainers_suite(tmp_path, compress):
    from unittest import mock
    path = str(tmp_path / 'f.npz')
    with open(path, 'wb') as f:
        (numpy.savez_compressed if compress else numpy.savez)(f, None)
    obj = mock.MagicMock()
    serializers.load_npz(path, obj)
    assert obj.serialize.call_count == 1
    (deserializer,), _ = obj.serialize.call_args
    assert isinstance(deserializer, serializers.NpzDeserializer)
    obj = mock.MagicMock()
    serializers.save_npz(path, obj, compress)
    assert obj.serialize.call_count == 1
    (serializer,), _ = obj.serialize.call_args
    assert isinstance(serializer, serializers.DictionarySerializer)


def test_objects_without_serialize_are_rejected(tmp_path):
    with pytest.raises(TypeError, match='save_npz: obj must have a serialize.*got int'):
        serializers.save_npz(tmp_path / 'x.npz', 3)
    serializers.save_npz(tmp_path / 'x.npz', {'a': numpy.zeros(1)})
    with pytest.raises(TypeError, match='load_npz: obj must have a serialize.*got list'):
        serializers.load_npz(tmp_path / 'x.npz', [])


def test_bad_values_are_rejected_before_writing_to_a_file_object():
    buf = io.BytesIO()
    with pytest.raises(TypeError, match="'b'"):
        serializers.save_npz(buf, {'a': numpy.zeros(3), 'b': numpy.asarray([None, 1],
                                                                           dtype=object)})
    assert buf.getvalue() == b''
