"""Issue 6 benchmark: one training step through StandardUpdater vs a hand-written NumPy floor.

The step is an MLP (784-H-H-10, ReLU, softmax cross entropy, accuracy), batch 100, Adam,
for H = 1000 (BLAS-bound) and H = 100 (where framework overhead shows).  The floor gathers
the batch by fancy indexing, runs forward and backward with NumPy and updates in place with
Adam, all in float32.  Both are timed alternately in one process; the ratio is printed.
"""
import argparse
import gc
import os
import sys
import time

import numpy

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

N_TRAIN = 10000
BATCH = 100


def make_data(seed=0):
    rs = numpy.random.RandomState(seed)
    x = rs.uniform(0, 1, (N_TRAIN, 784)).astype(numpy.float32)
    t = rs.randint(0, 10, N_TRAIN).astype(numpy.int32)
    return x, t


def build_minichainer(x, t, hidden):
    import minichainer as chainer
    import minichainer.functions as F
    import minichainer.links as L

    class MLP(chainer.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.l1 = L.Linear(784, hidden)
                self.l2 = L.Linear(hidden, hidden)
                self.l3 = L.Linear(hidden, 10)

        def forward(self, x):
            return self.l3(F.relu(self.l2(F.relu(self.l1(x)))))

    model = L.Classifier(MLP())
    optimizer = chainer.optimizers.Adam()
    optimizer.setup(model)
    it = chainer.iterators.SerialIterator(chainer.datasets.TupleDataset(x, t), BATCH)
    updater = chainer.training.updaters.StandardUpdater(it, optimizer)
    params = {name: p.array.copy() for name, p in model.namedparams()}
    return updater.update, params


class NumpyFloor:
    """Forward, backward and in-place Adam written by hand."""

    def __init__(self, x, t, params, hidden, alpha=0.001, beta1=0.9, beta2=0.999, eps=1e-8):
        self.x, self.t = x, t
        p = params
        self.W = [p['/predictor/l1/W'], p['/predictor/l2/W'], p['/predictor/l3/W']]
        self.b = [p['/predictor/l1/b'], p['/predictor/l2/b'], p['/predictor/l3/b']]
        self.params = self.W + self.b
        self.m = [numpy.zeros_like(a) for a in self.params]
        self.v = [numpy.zeros_like(a) for a in self.params]
        self.tmp = [numpy.empty_like(a) for a in self.params]
        self.alpha, self.beta1, self.beta2, self.eps = alpha, beta1, beta2, eps
        self.step_count = 0
        self.order = numpy.random.permutation(len(x))
        self.pos = 0

    def step(self):
        if self.pos + BATCH > len(self.order):
            self.order = numpy.random.permutation(len(self.x))
            self.pos = 0
        idx = self.order[self.pos:self.pos + BATCH]
        self.pos += BATCH
        x, t = self.x[idx], self.t[idx]
        W1, W2, W3 = self.W
        b1, b2, b3 = self.b
        h1 = x.dot(W1.T)
        h1 += b1
        a1 = numpy.maximum(h1, 0)
        h2 = a1.dot(W2.T)
        h2 += b2
        a2 = numpy.maximum(h2, 0)
        y = a2.dot(W3.T)
        y += b3
        y_max = y.max(axis=1, keepdims=True)
        e = numpy.exp(y - y_max)
        s = e.sum(axis=1, keepdims=True)
        log_p = y - y_max - numpy.log(s)
        loss = -log_p[numpy.arange(BATCH), t].mean()
        accuracy = (y.argmax(axis=1) == t).mean()
        gy = e / s
        gy[numpy.arange(BATCH), t] -= 1
        gy /= BATCH
        g = [None] * 6
        g[2] = gy.T.dot(a2)
        g[5] = gy.sum(axis=0)
        ga2 = gy.dot(W3)
        ga2 *= h2 > 0
        g[1] = ga2.T.dot(a1)
        g[4] = ga2.sum(axis=0)
        ga1 = ga2.dot(W2)
        ga1 *= h1 > 0
        g[0] = ga1.T.dot(x)
        g[3] = ga1.sum(axis=0)
        self.step_count += 1
        n = self.step_count
        lr = self.alpha * numpy.sqrt(1 - self.beta2 ** n) / (1 - self.beta1 ** n)
        for p, grad, m, v, tmp in zip(self.params, g, self.m, self.v, self.tmp):
            numpy.subtract(grad, m, out=tmp)
            tmp *= 1 - self.beta1
            m += tmp
            numpy.multiply(grad, grad, out=tmp)
            tmp -= v
            tmp *= 1 - self.beta2
            v += tmp
            numpy.sqrt(v, out=tmp)
            tmp += self.eps
            numpy.divide(m, tmp, out=tmp)
            tmp *= lr
            p -= tmp
        return loss, accuracy


def measure(hidden, steps, rounds):
    x, t = make_data()
    update, params = build_minichainer(x, t, hidden)
    floor = NumpyFloor(x, t, params, hidden)
    for _ in range(3):
        update()
        floor.step()
    ours, base = [], []
    for _ in range(rounds):
        gc.collect()
        start = time.perf_counter()
        for _ in range(steps):
            update()
        ours.append((time.perf_counter() - start) / steps)
        gc.collect()
        start = time.perf_counter()
        for _ in range(steps):
            floor.step()
        base.append((time.perf_counter() - start) / steps)
    return min(ours), min(base), numpy.median(numpy.array(ours) / numpy.array(base))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument('--rounds', type=int, default=15)
    parser.add_argument('--steps', type=int, default=10)
    args = parser.parse_args(argv)
    results = {}
    for hidden, target in ((1000, 1.08), (100, 1.30)):
        ours, base, median_ratio = measure(hidden, args.steps, args.rounds)
        results[hidden] = ours / base
        print('MLP 784-{0}-{0}-10, batch {1}, Adam'.format(hidden, BATCH))
        print('  StandardUpdater.update(): {:8.3f} ms'.format(ours * 1e3))
        print('  hand-written numpy step:  {:8.3f} ms'.format(base * 1e3))
        print('  ratio (best/best) {:.3f}x, median of paired rounds {:.3f}x (target <= {}x)'
              .format(ours / base, median_ratio, target))
    return results


if __name__ == '__main__':
    main()
