#!/usr/bin/env python
"""A tiny LSTM language model trained with truncated BPTT (the API surface of Chainer's
examples/ptb/train_ptb.py: a custom Iterator, an updater overriding update_core, LSTM,
GradientClipping, an Evaluator on a copied model), for minichainer's end-to-end tests.

Word ids come from ``--data DIR`` (train.npy, valid.npy, test.npy).
"""
import argparse
import os

import numpy as np

import chainer
import chainer.functions as F
import chainer.links as L
from chainer import training
from chainer.training import extensions


class RNNLM(chainer.Chain):

    def __init__(self, n_vocab, n_units):
        super(RNNLM, self).__init__()
        with self.init_scope():
            self.embed = L.EmbedID(n_vocab, n_units)
            self.l1 = L.LSTM(n_units, n_units)
            self.l2 = L.Linear(n_units, n_vocab)
        for param in self.params():
            param.array[...] = np.random.uniform(-0.1, 0.1, param.shape)

    def reset_state(self):
        self.l1.reset_state()

    def forward(self, x):
        h0 = self.embed(x)
        h1 = self.l1(F.dropout(h0))
        return self.l2(F.dropout(h1))


class ParallelSequentialIterator(chainer.dataset.Iterator):

    def __init__(self, dataset, batch_size, repeat=True):
        super(ParallelSequentialIterator, self).__init__()
        self.dataset = dataset
        self.batch_size = batch_size
        self.epoch = 0
        self.is_new_epoch = False
        self.repeat = repeat
        length = len(dataset)
        self.offsets = [i * length // batch_size for i in range(batch_size)]
        self.reset()

    def reset(self):
        self.epoch = 0
        self.is_new_epoch = False
        self.iteration = 0
        self._previous_epoch_detail = -1.

    def __next__(self):
        length = len(self.dataset)
        if not self.repeat and self.iteration * self.batch_size >= length:
            raise StopIteration
        cur_words = self.get_words()
        self._previous_epoch_detail = self.epoch_detail
        self.iteration += 1
        next_words = self.get_words()
        epoch = self.iteration * self.batch_size // length
        self.is_new_epoch = self.epoch < epoch
        if self.is_new_epoch:
            self.epoch = epoch
        return list(zip(cur_words, next_words))

    @property
    def epoch_detail(self):
        return self.iteration * self.batch_size / len(self.dataset)

    @property
    def previous_epoch_detail(self):
        if self._previous_epoch_detail < 0:
            return None
        return self._previous_epoch_detail

    def get_words(self):
        return [self.dataset[(offset + self.iteration) % len(self.dataset)]
                for offset in self.offsets]

    def serialize(self, serializer):
        self.iteration = serializer('iteration', self.iteration)
        self.epoch = serializer('epoch', self.epoch)
        try:
            self._previous_epoch_detail = serializer(
                'previous_epoch_detail', self._previous_epoch_detail)
        except KeyError:
            self._previous_epoch_detail = self.epoch_detail


class BPTTUpdater(training.updaters.StandardUpdater):

    def __init__(self, train_iter, optimizer, bprop_len, device):
        super(BPTTUpdater, self).__init__(train_iter, optimizer, device=device)
        self.bprop_len = bprop_len

    def update_core(self):
        loss = 0
        train_iter = self.get_iterator('main')
        optimizer = self.get_optimizer('main')
        for i in range(self.bprop_len):
            batch = train_iter.__next__()
            x, t = self.converter(batch, self.device)
            loss += optimizer.target(x, t)
        optimizer.target.cleargrads()
        loss.backward()
        loss.unchain_backward()
        optimizer.update()


def compute_perplexity(result):
    result['perplexity'] = np.exp(result['main/loss'])
    if 'validation/main/loss' in result:
        result['val_perplexity'] = np.exp(result['validation/main/loss'])


def main():
    p = argparse.ArgumentParser()
    p.add_argument('--batchsize', '-b', type=int, default=4)
    p.add_argument('--bproplen', '-l', type=int, default=5)
    p.add_argument('--epoch', '-e', type=int, default=2)
    p.add_argument('--device', '-d', type=str, default='-1')
    p.add_argument('--gradclip', '-c', type=float, default=5)
    p.add_argument('--out', '-o', default='result')
    p.add_argument('--resume', '-r', type=str)
    p.add_argument('--unit', '-u', type=int, default=12)
    p.add_argument('--data', required=True)
    p.add_argument('--model', '-m', default='model.npz')
    p.add_argument('--gpu', '-g', dest='device', type=int, nargs='?', const=0)
    args = p.parse_args()

    device = chainer.get_device(args.device)
    device.use()

    train, val, test = (np.load(os.path.join(args.data, name + '.npy'))
                        for name in ('train', 'valid', 'test'))
    n_vocab = int(max(train)) + 1
    print('#vocab = {}'.format(n_vocab))

    train_iter = ParallelSequentialIterator(train, args.batchsize)
    val_iter = ParallelSequentialIterator(val, 1, repeat=False)
    test_iter = ParallelSequentialIterator(test, 1, repeat=False)

    rnn = RNNLM(n_vocab, args.unit)
    model = L.Classifier(rnn)
    model.compute_accuracy = False
    model.to_device(device)

    optimizer = chainer.optimizers.SGD(lr=1.0)
    optimizer.setup(model)
    optimizer.add_hook(chainer.optimizer_hooks.GradientClipping(args.gradclip))

    updater = BPTTUpdater(train_iter, optimizer, args.bproplen, device)
    trainer = training.Trainer(updater, (args.epoch, 'epoch'), out=args.out)

    eval_model = model.copy()
    eval_rnn = eval_model.predictor
    trainer.extend(extensions.Evaluator(val_iter, eval_model, device=device,
                                        eval_hook=lambda _: eval_rnn.reset_state()))
    interval = 2
    trainer.extend(extensions.LogReport(postprocess=compute_perplexity,
                                        trigger=(interval, 'iteration')))
    trainer.extend(extensions.PrintReport(['epoch', 'iteration', 'perplexity',
                                           'val_perplexity']),
                   trigger=(interval, 'iteration'))
    trainer.extend(extensions.ProgressBar(update_interval=1))
    trainer.extend(extensions.snapshot())
    trainer.extend(extensions.snapshot_object(model, 'model_iter_{.updater.iteration}'))
    if args.resume is not None:
        chainer.serializers.load_npz(args.resume, trainer)
    trainer.run()

    print('test')
    eval_rnn.reset_state()
    evaluator = extensions.Evaluator(test_iter, eval_model, device=device)
    result = evaluator()
    print('test perplexity: {}'.format(np.exp(float(result['main/loss']))))
    chainer.serializers.save_npz(os.path.join(args.out, args.model), model)


if __name__ == '__main__':
    main()
