#!/usr/bin/env python
"""An LSTM language model trained with truncated back-propagation through time.

Shows a custom iterator (several streams read in parallel from one long word
sequence), a StandardUpdater subclass that accumulates the loss over ``bproplen``
steps before one backward pass, gradient clipping, an Evaluator on a copy of the
model whose state is reset before each evaluation, and a LogReport postprocess that
adds perplexity.

    python examples/ptb/train_ptb.py                 # a generated corpus, offline
    python examples/ptb/train_ptb.py --test          # 100 words, a few seconds
    python examples/ptb/train_ptb.py --dataset ptb --unit 650 --epoch 39   # real PTB
"""
import argparse

import numpy

import minichainer as chainer
import minichainer.functions as F
import minichainer.links as L
from minichainer import training
from minichainer.training import extensions

import toy_corpus


class RNNForLM(chainer.Chain):
    """Embedding → two LSTM layers → a linear layer scoring every word."""

    def __init__(self, n_vocab, n_units, dropout=0.5):
        super().__init__()
        self.dropout = dropout
        with self.init_scope():
            self.embed = L.EmbedID(n_vocab, n_units)
            self.l1 = L.LSTM(n_units, n_units)
            self.l2 = L.LSTM(n_units, n_units)
            self.l3 = L.Linear(n_units, n_vocab)
        # Start from small uniform weights, drawn from numpy's global generator.
        for param in self.params():
            param.array[...] = numpy.random.uniform(-0.1, 0.1, param.shape)

    def reset_state(self):
        self.l1.reset_state()
        self.l2.reset_state()

    def forward(self, x):
        h0 = self.embed(x)
        h1 = self.l1(F.dropout(h0, self.dropout))
        h2 = self.l2(F.dropout(h1, self.dropout))
        return self.l3(F.dropout(h2, self.dropout))


class ParallelSequentialIterator(chainer.dataset.Iterator):
    """Reads ``batch_size`` streams at evenly spaced offsets of one long sequence.

    Each batch is a list of ``(current word, next word)`` pairs, one per stream;
    every call moves all streams one word on. An epoch is ``len(dataset)`` words read
    in total, so ``epoch_detail`` is ``iteration * batch_size / len(dataset)``.
    """

    def __init__(self, dataset, batch_size, repeat=True):
        if batch_size <= 0 or batch_size > len(dataset):
            raise ValueError('ParallelSequentialIterator: batch_size must be in '
                             '[1, {}], got {}'.format(len(dataset), batch_size))
        self.dataset = dataset
        self.batch_size = batch_size
        self.repeat = repeat
        self.offsets = [i * len(dataset) // batch_size for i in range(batch_size)]
        self.reset()

    def reset(self):
        self.iteration = 0
        self.epoch = 0
        self.is_new_epoch = False
        self._previous_epoch_detail = -1.

    def __next__(self):
        length = len(self.dataset)
        if not self.repeat and self.iteration * self.batch_size >= length:
            raise StopIteration
        current = self._words()
        self._previous_epoch_detail = self.epoch_detail
        self.iteration += 1
        following = self._words()
        epoch = self.iteration * self.batch_size // length
        self.is_new_epoch = self.epoch < epoch
        if self.is_new_epoch:
            self.epoch = epoch
        return list(zip(current, following))

    next = __next__

    @property
    def epoch_detail(self):
        return self.iteration * self.batch_size / len(self.dataset)

    @property
    def previous_epoch_detail(self):
        return None if self._previous_epoch_detail < 0 else self._previous_epoch_detail

    def _words(self):
        length = len(self.dataset)
        return [self.dataset[(offset + self.iteration) % length] for offset in self.offsets]

    def serialize(self, serializer):
        # Everything needed to continue exactly where a snapshot was taken.
        self.iteration = serializer('iteration', self.iteration)
        self.epoch = serializer('epoch', self.epoch)
        self._previous_epoch_detail = serializer(
            'previous_epoch_detail', self._previous_epoch_detail)


class BPTTUpdater(training.updaters.StandardUpdater):
    """Truncated BPTT: ``bprop_len`` forward steps, then one backward and update."""

    def __init__(self, train_iter, optimizer, bprop_len, device):
        super().__init__(train_iter, optimizer, device=device)
        self.bprop_len = bprop_len

    def update_core(self):
        train_iter = self.get_iterator('main')
        optimizer = self.get_optimizer('main')
        loss = 0
        for _ in range(self.bprop_len):
            batch = train_iter.__next__()
            x, t = self.converter(batch, self.device)
            loss += optimizer.target(x, t)   # Classifier reports main/loss each step
        optimizer.target.cleargrads()
        loss.backward()
        loss.unchain_backward()   # cut the graph: the LSTM state is kept, its history not
        optimizer.update()


def compute_perplexity(result):
    """LogReport postprocess: perplexity = exp(mean cross entropy)."""
    result['perplexity'] = numpy.exp(result['main/loss'])
    if 'validation/main/loss' in result:
        result['val_perplexity'] = numpy.exp(result['validation/main/loss'])


def load_corpus(name):
    if name == 'toy':
        return toy_corpus.get_toy_words()
    if name == 'ptb':
        return chainer.datasets.get_ptb_words()
    raise ValueError('--dataset must be toy or ptb, got {!r}'.format(name))


def main(argv=None):
    parser = argparse.ArgumentParser(description='minichainer example: LSTM language model')
    parser.add_argument('--dataset', default='toy', choices=('toy', 'ptb'),
                        help='toy: a generated corpus (offline); ptb: Penn Tree Bank')
    parser.add_argument('--batchsize', '-b', type=int, default=20,
                        help='Number of parallel word streams')
    parser.add_argument('--bproplen', '-l', type=int, default=35,
                        help='Length of truncated BPTT')
    parser.add_argument('--epoch', '-e', type=int, default=5)
    parser.add_argument('--device', '-d', type=str, default='-1')
    parser.add_argument('--gradclip', '-c', type=float, default=5,
                        help='Gradient norm threshold to clip')
    parser.add_argument('--out', '-o', default='result/ptb')
    parser.add_argument('--resume', '-r', type=str, default=None)
    parser.add_argument('--test', action='store_true',
                        help='Quick check: 100-word datasets, 2 epochs, small sizes')
    parser.add_argument('--unit', '-u', type=int, default=100,
                        help='Number of LSTM units in each layer')
    parser.add_argument('--model', '-m', default='model.npz',
                        help='File name of the final model (in --out)')
    parser.add_argument('--seed', type=int, default=0)
    group = parser.add_argument_group('deprecated arguments')
    group.add_argument('--gpu', '-g', dest='device', type=int, nargs='?', const=0)
    args = parser.parse_args(argv)

    numpy.random.seed(args.seed)
    device = chainer.get_device(args.device)
    print('Device: {}'.format(device))

    train, val, test = load_corpus(args.dataset)
    n_vocab = int(max(train)) + 1
    print('#vocab = {}'.format(n_vocab))
    if args.test:
        train, val, test = train[:100], val[:100], test[:100]
        args.epoch = min(args.epoch, 2)
        args.batchsize = min(args.batchsize, 5)   # 5 streams x 5 steps = 1/4 epoch
        args.bproplen = min(args.bproplen, 5)
        args.unit = min(args.unit, 20)
    print('#words: train {}, valid {}, test {}'.format(len(train), len(val), len(test)))

    train_iter = ParallelSequentialIterator(train, args.batchsize)
    val_iter = ParallelSequentialIterator(val, 1, repeat=False)
    test_iter = ParallelSequentialIterator(test, 1, repeat=False)

    rnn = RNNForLM(n_vocab, args.unit)
    model = L.Classifier(rnn)
    model.compute_accuracy = False   # only the perplexity matters
    model.to_device(device)
    device.use()

    optimizer = chainer.optimizers.SGD(lr=1.0)
    optimizer.setup(model)
    optimizer.add_hook(chainer.optimizer_hooks.GradientClipping(args.gradclip))

    updater = BPTTUpdater(train_iter, optimizer, args.bproplen, device)
    trainer = training.Trainer(updater, (args.epoch, 'epoch'), out=args.out)

    eval_model = model.copy()   # shares the parameters, has its own LSTM state
    eval_rnn = eval_model.predictor
    trainer.extend(extensions.Evaluator(
        val_iter, eval_model, device=device,
        eval_hook=lambda _: eval_rnn.reset_state()))

    interval = 1 if args.test else 10
    trainer.extend(extensions.LogReport(postprocess=compute_perplexity,
                                        trigger=(interval, 'iteration')))
    trainer.extend(extensions.PrintReport(
        ['epoch', 'iteration', 'perplexity', 'val_perplexity']),
        trigger=(interval, 'iteration'))
    trainer.extend(extensions.ProgressBar(update_interval=1 if args.test else 10))
    trainer.extend(extensions.snapshot(n_retains=1))
    trainer.extend(extensions.snapshot_object(model, 'model_iter_{.updater.iteration}'))
    if args.resume:
        chainer.serializers.load_npz(args.resume, trainer)

    trainer.run()

    print('test')
    eval_rnn.reset_state()
    evaluator = extensions.Evaluator(test_iter, eval_model, device=device)
    result = evaluator()
    perplexity = float(numpy.exp(float(result['main/loss'])))
    print('test perplexity: {:.3f}'.format(perplexity))
    chainer.serializers.save_npz('{}/{}'.format(args.out, args.model), model)
    return perplexity


if __name__ == '__main__':
    main()
