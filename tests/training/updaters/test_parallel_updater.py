"""ParallelUpdater on CPU devices: Chainer's data-parallel step (sub-batch i::n per model
copy, gradients summed into the main model, parameters copied back)."""
import numpy
import pytest

import minichainer
import minichainer.functions as F
import minichainer.links as L
from minichainer import training


def _data():
    rng = numpy.random.RandomState(0)
    x = rng.randn(8, 3).astype(numpy.float32)
    t = rng.randint(0, 2, 8).astype(numpy.int32)
    return minichainer.datasets.TupleDataset(x, t)


def test_one_step_sums_the_sub_batch_gradients():
    data = _data()
    numpy.random.seed(1)
    model = L.Classifier(L.Linear(3, 2))
    reference = model.copy(mode='copy')
    opt = minichainer.optimizers.SGD(lr=0.5)
    opt.setup(model)
    it = minichainer.iterators.SerialIterator(data, 4, shuffle=False)
    updater = training.ParallelUpdater(it, opt, devices={'main': -1, 'second': '@numpy'})
    updater.update()

    x, t = minichainer.dataset.concat_examples(data[:4])
    reference.cleargrads()
    for part in (slice(0, None, 2), slice(1, None, 2)):
        F.softmax_cross_entropy(reference.predictor(x[part]), t[part]).backward()
    for name, p in reference.namedparams():
        expected = p.array - numpy.float32(0.5) * p.grad
        numpy.testing.assert_allclose(dict(model.namedparams())[name].array, expected,
                                      rtol=1e-6)
    second = updater._models['second']
    assert second is not model
    for (_, a), (_, b) in zip(model.namedparams(), second.namedparams()):
        numpy.testing.assert_array_equal(a.array, b.array)  # copied back


def test_trainer_reports_the_copies_under_their_names(tmp_path):
    numpy.random.seed(0)
    model = L.Classifier(L.Linear(3, 2))
    opt = minichainer.optimizers.SGD()
    opt.setup(model)
    it = minichainer.iterators.SerialIterator(_data(), 4)
    updater = training.ParallelUpdater(it, opt, devices={'main': -1, 'second': -1})
    trainer = training.Trainer(updater, (1, 'iteration'), out=str(tmp_path))
    seen = []
    trainer.extend(lambda t: seen.append(sorted(t.observation)), name='w')
    trainer.run()
    assert seen == [['main/accuracy', 'main/loss', 'second/accuracy', 'second/loss']]


def test_devices_need_a_main_key():
    opt = minichainer.optimizers.SGD()
    opt.setup(L.Linear(3, 2))
    it = minichainer.iterators.SerialIterator(_data(), 4)
    with pytest.raises(KeyError, match="'main'"):
        training.ParallelUpdater(it, opt, devices={'a': -1, 'b': -1})
    with pytest.raises(ValueError, match='models or devices'):
        training.ParallelUpdater(it, opt)


def test_gpu_devices_raise_a_clear_error():
    model = L.Classifier(L.Linear(3, 2))
    opt = minichainer.optimizers.SGD()
    opt.setup(model)
    it = minichainer.iterators.SerialIterator(_data(), 4)
    with pytest.raises(RuntimeError, match='no GPU backend'):
        training.ParallelUpdater(it, opt, devices={'main': 0, 'second': 1})
