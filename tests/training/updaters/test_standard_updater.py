import numpy
import pytest

import minichainer
import minichainer.functions as F
import minichainer.links as L
from minichainer import dataset
from minichainer import training
from minichainer.serializers import npz

from .. import _models


def _setup(batch_size=5, n=20, **kwargs):
    numpy.random.seed(0)
    model = L.Classifier(_models.MLP(dropout=0))
    opt = minichainer.optimizers.SGD(lr=0.1)
    opt.setup(model)
    it = minichainer.iterators.SerialIterator(_models.make_dataset(n), batch_size)
    return training.updaters.StandardUpdater(it, opt, **kwargs), model, opt, it


def test_update_counts_and_epoch_properties():
    updater, model, opt, it = _setup()
    assert updater.get_iterator('main') is it
    assert updater.get_optimizer('main') is opt
    assert updater.get_all_optimizers() == {'main': opt}
    assert updater.iteration == 0 and updater.epoch == 0
    assert updater.previous_epoch_detail is None
    assert opt.use_auto_new_epoch
    for i in range(4):
        updater.update()
    assert updater.iteration == 4
    assert updater.epoch == 1 and updater.is_new_epoch
    assert updater.epoch_detail == pytest.approx(1.0)
    assert updater.previous_epoch_detail == pytest.approx(0.75)
    assert opt.epoch == 1  # new_epoch(auto=True) was called
    assert opt.t == 4
    assert model.loss is not None


def test_converter_loss_func_and_device():
    calls = []

    def converter(batch, device=None):
        calls.append(device)
        return dataset.concat_examples(batch)

    def loss_func(x, t):
        calls.append('loss')
        return F.sum(x) * 0

    updater, model, opt, it = _setup(converter=converter, loss_func=loss_func,
                                     device='@numpy')
    assert updater.converter is converter
    assert str(updater.device) == '@numpy'
    assert updater.input_device is updater.device
    updater.update()
    assert calls == [-1, 'loss']  # an old-style converter receives -1 for the CPU


def test_dict_batches_are_passed_as_keywords():
    got = {}

    def converter(batch, device=None):
        return {'x': numpy.ones((2, 4), numpy.float32), 't': numpy.zeros(2, numpy.int32)}

    def loss_func(x, t):
        got['shapes'] = (x.shape, t.shape)
        return F.sum(minichainer.Variable(x))

    updater, _, _, _ = _setup(converter=converter, loss_func=loss_func)
    updater.update()
    assert got['shapes'] == ((2, 4), (2,))


def test_serialize_keys_and_round_trip():
    updater, model, opt, it = _setup()
    for _ in range(3):
        updater.update()
    s = npz.DictionarySerializer()
    updater.serialize(s)
    keys = set(s.target)
    assert 'iteration' in keys
    assert 'iterator:main/current_position' in keys
    assert 'optimizer:main/t' in keys
    assert 'model:main/predictor/l1/W' in keys

    updater2, model2, opt2, it2 = _setup()
    model2(numpy.zeros((1, 4), numpy.float32), numpy.zeros(1, numpy.int32))
    updater2.serialize(npz.NpzDeserializer(s.target))
    assert updater2.iteration == 3 and opt2.t == 3
    assert it2.current_position == it.current_position
    numpy.testing.assert_array_equal(model2.predictor.l1.W.array,
                                     model.predictor.l1.W.array)


def test_dict_iterators_need_main():
    updater, model, opt, it = _setup()
    with pytest.raises(ValueError, match="'main'"):
        training.updaters.StandardUpdater({'train': it}, opt)


def test_unexpected_kwarg():
    updater, model, opt, it = _setup()
    with pytest.raises(TypeError, match="'devices'"):
        training.updaters.StandardUpdater(it, opt, devices=[0])


def test_multiprocess_parallel_updater_needs_several_gpus():
    updater, model, opt, it = _setup()
    with pytest.raises(RuntimeError, match='several GPU devices'):
        training.updaters.MultiprocessParallelUpdater([it], opt, devices=[0, 1])
    assert training.updaters.MultiprocessParallelUpdater.available() is False


class _GANUpdater(training.updaters.StandardUpdater):
    """Two optimizers updated from one batch, as in Chainer's dcgan example."""

    def __init__(self, *args, **kwargs):
        self.gen, self.dis = kwargs.pop('models')
        super().__init__(*args, **kwargs)

    def update_core(self):
        gen_opt = self.get_optimizer('gen')
        dis_opt = self.get_optimizer('dis')
        batch = self.get_iterator('main').next()
        x_real = minichainer.Variable(self.converter(batch, self.device))
        xp = minichainer.backend.get_array_module(x_real.array)
        y_real = self.dis(x_real)
        z = minichainer.Variable(xp.asarray(
            numpy.random.uniform(-1, 1, (len(batch), 2)).astype(numpy.float32)))
        x_fake = self.gen(z)
        y_fake = self.dis(x_fake)
        loss_dis = F.sum(F.softplus(-y_real)) / len(batch) + \
            F.sum(F.softplus(y_fake)) / len(batch)
        loss_gen = F.sum(F.softplus(-y_fake)) / len(batch)
        minichainer.report({'loss': loss_dis}, self.dis)
        minichainer.report({'loss': loss_gen}, self.gen)
        dis_opt.update(lambda: loss_dis)
        gen_opt.update(lambda: loss_gen)


def test_gan_style_custom_updater_with_two_optimizers(tmp_path):
    numpy.random.seed(0)
    gen = L.Linear(2, 3)
    dis = L.Linear(3, 1)
    gen_opt = minichainer.optimizers.Adam(alpha=0.01)
    gen_opt.setup(gen)
    dis_opt = minichainer.optimizers.Adam(alpha=0.01)
    dis_opt.setup(dis)
    data = numpy.random.randn(16, 3).astype(numpy.float32)
    it = minichainer.iterators.SerialIterator(data, 4)
    updater = _GANUpdater(it, {'gen': gen_opt, 'dis': dis_opt}, models=(gen, dis))
    trainer = training.Trainer(updater, (6, 'iteration'), out=str(tmp_path))
    log = training.extensions.LogReport(trigger=(3, 'iteration'))
    trainer.extend(log)
    w0 = (gen.W.array.copy(), dis.W.array.copy())
    trainer.run()
    assert len(log.log) == 2
    assert set(log.log[0]) >= {'gen/loss', 'dis/loss', 'epoch', 'iteration'}
    assert not numpy.array_equal(gen.W.array, w0[0])
    assert not numpy.array_equal(dis.W.array, w0[1])
    assert gen_opt.t == dis_opt.t == 6


class _ParallelSequentialIterator(minichainer.dataset.Iterator):
    """A custom iterator, as in Chainer's ptb example: words at several offsets."""

    def __init__(self, data, batch_size):
        self.data = data
        self.batch_size = batch_size
        self.epoch = 0
        self.is_new_epoch = False
        self.iteration = 0
        self.offsets = [i * len(data) // batch_size for i in range(batch_size)]
        self._previous_epoch_detail = -1.

    def __next__(self):
        length = len(self.data)
        self._previous_epoch_detail = self.epoch_detail
        cur = [self.data[(o + self.iteration) % length] for o in self.offsets]
        self.iteration += 1
        nxt = [self.data[(o + self.iteration) % length] for o in self.offsets]
        epoch = self.iteration * self.batch_size // length
        self.is_new_epoch = self.epoch < epoch
        self.epoch = epoch
        return list(zip(cur, nxt))

    @property
    def epoch_detail(self):
        return self.iteration * self.batch_size / len(self.data)

    @property
    def previous_epoch_detail(self):
        return None if self._previous_epoch_detail < 0 else self._previous_epoch_detail

    def serialize(self, serializer):
        self.iteration = int(serializer('iteration', self.iteration))
        self.epoch = int(serializer('epoch', self.epoch))
        self._previous_epoch_detail = float(
            serializer('previous_epoch_detail', self._previous_epoch_detail))


class _BPTTUpdater(training.updaters.StandardUpdater):

    def __init__(self, train_iter, optimizer, bprop_len):
        super().__init__(train_iter, optimizer)
        self.bprop_len = bprop_len

    def update_core(self):
        loss = 0
        train_iter = self.get_iterator('main')
        optimizer = self.get_optimizer('main')
        for _ in range(self.bprop_len):
            batch = train_iter.__next__()
            x, t = self.converter(batch, self.device)
            loss += optimizer.target(minichainer.Variable(x), minichainer.Variable(t))
        optimizer.target.cleargrads()
        loss.backward()
        loss.unchain_backward()
        optimizer.update()


class _RNN(minichainer.Chain):
    def __init__(self, n_vocab):
        super().__init__()
        with self.init_scope():
            self.embed = L.EmbedID(n_vocab, 6)
            self.out = L.Linear(6, n_vocab)
        self.h = None

    def forward(self, x):
        e = self.embed(x)
        self.h = e if self.h is None else F.tanh(e + self.h)
        return self.out(self.h)


def test_bptt_style_updater_with_custom_iterator(tmp_path):
    numpy.random.seed(1)
    n_vocab = 7
    words = numpy.random.randint(0, n_vocab, size=40).astype(numpy.int32)
    model = L.Classifier(_RNN(n_vocab))
    opt = minichainer.optimizers.SGD(lr=0.5)
    opt.setup(model)
    it = _ParallelSequentialIterator(words, 4)
    updater = _BPTTUpdater(it, opt, bprop_len=5)
    trainer = training.Trainer(updater, (2, 'epoch'), out=str(tmp_path))
    log = training.extensions.LogReport(trigger=(1, 'epoch'))
    trainer.extend(log)
    trainer.extend(training.extensions.snapshot(), trigger=(1, 'epoch'))
    trainer.run()
    # 40 words / 4 streams = 10 steps per epoch, 5 steps per update.
    assert updater.iteration == 4
    assert [e['epoch'] for e in log.log] == [1, 2]
    assert log.log[1]['main/loss'] < log.log[0]['main/loss']
    assert (tmp_path / 'snapshot_iter_4').exists()
