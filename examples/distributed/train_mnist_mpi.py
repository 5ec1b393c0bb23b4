#!/usr/bin/env python
"""Data-parallel training of an MLP on handwritten digits with MPI (ChainerMN style).

Every process holds a replica of the model and a part of the training data; the
multi-node optimizer averages the gradients over all processes at each step, so the
effective batch is ``--batchsize`` times the number of processes.

    mpiexec -n 2 python examples/distributed/train_mnist_mpi.py
    mpiexec -n 2 python examples/distributed/train_mnist_mpi.py --autoload   # continue
    mpiexec -n 2 python examples/distributed/train_mnist_mpi.py --dataset mnist --unit 1000

Needs ``pip install minichainer[mpi,examples]`` (mpi4py + MPICH, scikit-learn for the
bundled 8x8 digits). Only rank 0 prints and writes the log; rank 0 also writes the
snapshots, which every rank loads on ``--autoload`` / ``--resume``.
"""
import argparse
import sys

import numpy

import minichainer as chainer
import minichainer.distributed as chainermn
import minichainer.functions as F
import minichainer.links as L
from minichainer import training
from minichainer.training import extensions


class MLP(chainer.Chain):
    """Three fully-connected layers; input sizes are inferred at the first call."""

    def __init__(self, n_units, n_out):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(None, n_units)
            self.l2 = L.Linear(None, n_units)
            self.l3 = L.Linear(None, n_out)

    def forward(self, x):
        h1 = F.relu(self.l1(x))
        h2 = F.relu(self.l2(h1))
        return self.l3(h2)


def load_dataset(name):
    if name == 'digits':
        return chainer.datasets.get_digits()
    if name == 'mnist':
        return chainer.datasets.get_mnist()
    raise ValueError('--dataset must be digits or mnist, got {!r}'.format(name))


def main(argv=None):
    parser = argparse.ArgumentParser(description='minichainer: MNIST with MPI')
    parser.add_argument('--dataset', default='digits', choices=('digits', 'mnist'))
    parser.add_argument('--batchsize', '-b', type=int, default=50,
                        help='Mini-batch size of each process')
    parser.add_argument('--communicator', default='naive',
                        help="Communicator: 'naive', 'flat' or 'non_cuda_aware'")
    parser.add_argument('--epoch', '-e', type=int, default=20)
    parser.add_argument('--seed', type=int, default=0,
                        help='seed of numpy\'s global RNG (offset by the rank)')
    parser.add_argument('--unit', '-u', type=int, default=100)
    parser.add_argument('--out', '-o', default='result/distributed')
    parser.add_argument('--resume', '-r', default=None,
                        help='Snapshot file to resume from (loaded on every rank)')
    parser.add_argument('--autoload', action='store_true',
                        help='Resume from the newest snapshot in --out')
    parser.add_argument('--snapshot-interval', type=int, default=1,
                        help='Snapshot every this many epochs')
    args = parser.parse_args(argv)

    comm = chainermn.create_communicator(args.communicator)
    numpy.random.seed(args.seed + comm.rank)
    if comm.rank == 0:
        print('==========================================')
        print('Num processes (COMM_WORLD): {}'.format(comm.size))
        print('Communicator: {}'.format(args.communicator))
        print('Num units: {}'.format(args.unit))
        print('Num Minibatch-size per process: {}'.format(args.batchsize))
        print('Num epoch: {}'.format(args.epoch))
        print('==========================================', flush=True)

    model = L.Classifier(MLP(args.unit, 10))
    optimizer = chainermn.create_multi_node_optimizer(chainer.optimizers.Adam(), comm)
    optimizer.setup(model)

    # Rank 0 reads the data; scatter_dataset gives each rank its share.
    if comm.rank == 0:
        train, test = load_dataset(args.dataset)
    else:
        train, test = None, None
    train = chainermn.scatter_dataset(train, comm, shuffle=True, seed=0)
    test = chainermn.scatter_dataset(test, comm, shuffle=True, seed=0)

    train_iter = chainer.iterators.SerialIterator(train, args.batchsize)
    test_iter = chainer.iterators.SerialIterator(test, args.batchsize, repeat=False,
                                                 shuffle=False)
    updater = training.StandardUpdater(train_iter, optimizer)
    trainer = training.Trainer(updater, (args.epoch, 'epoch'), out=args.out)

    # Every rank evaluates its part; the reported values are means over all ranks.
    evaluator = extensions.Evaluator(test_iter, model)
    trainer.extend(chainermn.create_multi_node_evaluator(evaluator, comm))

    # Rank 0 writes the snapshots; with --autoload every rank loads the newest one.
    snapshot = extensions.snapshot(filename='snapshot_epoch_{.updater.epoch}',
                                   autoload=args.autoload, n_retains=2)
    trainer.extend(chainermn.multi_node_snapshot(comm, snapshot, replica_sets=[]),
                   trigger=(args.snapshot_interval, 'epoch'))

    if comm.rank == 0:
        trainer.extend(extensions.LogReport())
        trainer.extend(extensions.PrintReport(
            ['epoch', 'main/loss', 'validation/main/loss', 'main/accuracy',
             'validation/main/accuracy', 'elapsed_time']))

    if args.resume:
        chainer.serializers.load_npz(args.resume, trainer)

    trainer.run()
    return comm


if __name__ == '__main__':
    main(sys.argv[1:])
