"""Convnet benchmarks (issue 13): the training step of a CIFAR-sized convnet and of a
ResNet-style stack against the matrix products they need, ``convolution_2d`` against its
GEMMs, peak memory against Chainer 7, and the speed-up from a second BLAS thread.

Cases (float32, one BLAS thread unless said otherwise):

- ``convnet``: ``Classifier`` of Conv(3→32, 3×3, pad 1, nobias) → BN → ReLU → max-pool 2 →
  Conv(32→64) → BN → ReLU → max-pool 2 → Linear(4096→10), batch 64 of 3×32×32,
  ``MomentumSGD``, one ``optimizer.update(model, x, t)`` per step; against its GEMM floor
  (three matrix products per conv layer — forward, filter and data gradient — and the
  linear layer's three; the first layer's data gradient, which the step does not need,
  is counted as the issue does, and the floor without it is printed beside), PyTorch CPU
  (``torch.set_num_threads(1)``, when installed) and Chainer 7.8.1 (``--chainer-python``).
  Targets: ≤ 1.3× the floor, ≤ 0.9× PyTorch.
- ``resnet``: three residual blocks ``h = relu(bn(conv3x3(h))) + h`` at 64 channels on
  16×16 maps, batch 32, loss ``sum(h)``, MomentumSGD; against its GEMMs. Target ≤ 1.35×.
- ``conv``: ``convolution_2d`` forward + backward (x and W gradients), x (64,32,16,16),
  W (64,32,3,3), pad 1, against its three GEMMs. Target ≤ 1.15×.
- ``memory``: peak of the traced allocations (``tracemalloc``, which NumPy reports its
  buffers to) during one convnet step after warm-up, minichainer vs Chainer 7 measured
  the same way in its own process. Target: no larger than Chainer's.
- ``alone``: the convnet step, its GEMM floor and PyTorch's step, each in a fresh process
  per round (minichainer tunes glibc's allocator when its convolution engine is
  imported, which in the ``convnet`` case speeds the other contenders' later
  allocations too; here each runs with the settings it starts with).
- ``threads``: the convnet step with ``OPENBLAS_NUM_THREADS=2`` vs ``1`` (each in its own
  process, rounds alternating). Target ≥ 1.5×.
- ``variants``: the other convolutions of common models, forward + backward against the
  three GEMMs of each (per group when grouped): a stride-2 3×3 layer and a 7×7/2 stem
  (ResNet), a 1×1 layer on a channel-major input and a 1×1/2 projection, a 4×4/2
  deconvolution (DCGAN), a grouped and a depthwise 3×3 layer (MobileNet). No target.

Contenders are interleaved round by round and each figure is the median over rounds of
the per-round median step time, so slow phases of a shared machine hit all of them.
Times are the CPU time of the computing thread (``time.thread_time``), except for
``threads``, which needs wall time.

Run: ``python benchmarks/bench_convnet.py [--rounds 5] [--cases convnet,conv,...]
[--chainer-python /path/to/chainer7/python]``.
"""
import argparse
import json
import os
import subprocess
import sys
import time

import numpy

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CHAINER_PYTHON = '/work/venv-chainer/bin/python'


def _median(values):
    return float(numpy.median(values))


def _time_steps(step, steps, clock=None):
    """Median time of ``steps`` calls of ``step`` (seconds), by default on the CPU clock
    of the calling thread (``time.thread_time``): on a shared machine at load 10 wall
    times swing 2-3x while this stays within ~10%. Every contender computes in this
    thread (one BLAS thread; PyTorch with ``set_num_threads(1)`` runs inline)."""
    clock = clock or time.thread_time
    times = []
    for _ in range(steps):
        t0 = clock()
        step()
        times.append(clock() - t0)
    return _median(times)


# -- models, written against a ``chainer`` module (minichainer or Chainer 7) -------------

def make_convnet(chainer):
    F = chainer.functions
    L = chainer.links

    class ConvNet(chainer.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.c1 = L.Convolution2D(3, 32, 3, pad=1, nobias=True)
                self.b1 = L.BatchNormalization(32)
                self.c2 = L.Convolution2D(32, 64, 3, pad=1, nobias=True)
                self.b2 = L.BatchNormalization(64)
                self.fc = L.Linear(4096, 10)

        def forward(self, x):
            h = F.max_pooling_2d(F.relu(self.b1(self.c1(x))), 2)
            h = F.max_pooling_2d(F.relu(self.b2(self.c2(h))), 2)
            return self.fc(h)

    return L.Classifier(ConvNet())


def convnet_step(chainer, batch=64):
    """A callable running one training step of the convnet."""
    numpy.random.seed(0)
    model = make_convnet(chainer)
    optimizer = chainer.optimizers.MomentumSGD(lr=0.01)
    optimizer.setup(model)
    rng = numpy.random.RandomState(1)
    x = rng.uniform(-1, 1, (batch, 3, 32, 32)).astype(numpy.float32)
    t = rng.randint(0, 10, batch).astype(numpy.int32)
    return lambda: optimizer.update(model, x, t)


def resnet_step(chainer, batch=32, channels=64, size=16, blocks=3):
    F = chainer.functions
    L = chainer.links

    class Stack(chainer.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.convs = chainer.ChainList(*[
                    L.Convolution2D(channels, channels, 3, pad=1, nobias=True)
                    for _ in range(blocks)])
                self.bns = chainer.ChainList(*[L.BatchNormalization(channels)
                                               for _ in range(blocks)])

        def forward(self, x):
            h = x
            for conv, bn in zip(self.convs, self.bns):
                h = F.relu(bn(conv(h))) + h
            return F.sum(h)

    numpy.random.seed(0)
    model = Stack()
    optimizer = chainer.optimizers.MomentumSGD(lr=0.01)
    optimizer.setup(model)
    x = numpy.random.RandomState(1).uniform(
        -1, 1, (batch, channels, size, size)).astype(numpy.float32)
    return lambda: optimizer.update(model, x)


def conv_step(chainer):
    F = chainer.functions
    rng = numpy.random.RandomState(0)
    x = chainer.Variable(rng.uniform(-1, 1, (64, 32, 16, 16)).astype(numpy.float32))
    W = chainer.Variable(rng.uniform(-1, 1, (64, 32, 3, 3)).astype(numpy.float32))
    gy = rng.uniform(-1, 1, (64, 64, 16, 16)).astype(numpy.float32)

    def step():
        x.grad = W.grad = None
        y = F.convolution_2d(x, W, pad=1)
        y.grad = gy
        y.backward()

    return step


# -- GEMM floors -------------------------------------------------------------------------

def _conv_gemms(n, c, oc, k, out_hw, rng, with_gx=True):
    """The three products of one convolution, as callables on prepared matrices."""
    K = c * k * k
    P = n * out_hw
    W = rng.standard_normal((oc, K), dtype=numpy.float32)
    col = rng.standard_normal((K, P), dtype=numpy.float32)
    gy = rng.standard_normal((oc, P), dtype=numpy.float32)
    # the filter gradient in its faster orientation (the larger of oc and K as the rows
    # of the result, as minichainer computes it; `gy.dot(col.T)` measured 20-30% slower
    # at 64 x 288), so that the floor stays a floor
    if K > oc:
        ops = [lambda: W.dot(col), lambda: col.dot(gy.T)]
    else:
        ops = [lambda: W.dot(col), lambda: gy.dot(col.T)]
    if with_gx:
        ops.append(lambda: W.T.dot(gy))
    return ops


def _linear_gemms(n, i, o, rng):
    x = rng.standard_normal((n, i), dtype=numpy.float32)
    W = rng.standard_normal((o, i), dtype=numpy.float32)
    gy = rng.standard_normal((n, o), dtype=numpy.float32)
    return [lambda: x.dot(W.T), lambda: gy.T.dot(x), lambda: gy.dot(W)]


def _run_all(ops):
    def run():
        for op in ops:
            op()
    return run


def convnet_floor(first_gx=True):
    rng = numpy.random.default_rng(0)
    ops = (_conv_gemms(64, 3, 32, 3, 32 * 32, rng, with_gx=first_gx)
           + _conv_gemms(64, 32, 64, 3, 16 * 16, rng)
           + _linear_gemms(64, 4096, 10, rng))
    return _run_all(ops)


def resnet_floor():
    rng = numpy.random.default_rng(0)
    ops = []
    for _ in range(3):
        ops += _conv_gemms(32, 64, 64, 3, 16 * 16, rng)
    return _run_all(ops)


def conv_floor():
    return _run_all(_conv_gemms(64, 32, 64, 3, 16 * 16, numpy.random.default_rng(0)))


# (name, x shape, W shape, keyword arguments, deconvolution, x in channel-major order):
# see ``variants`` above
VARIANTS = [
    ('3x3/2 pad 1, (32,64,32,32) -> 128', (32, 64, 32, 32), (128, 64, 3, 3),
     dict(stride=2, pad=1), False, False),
    ('7x7/2 pad 3, (8,3,224,224) -> 64', (8, 3, 224, 224), (64, 3, 7, 7),
     dict(stride=2, pad=3), False, False),
    ('1x1, channel-major (32,256,14,14) -> 64', (32, 256, 14, 14), (64, 256, 1, 1),
     dict(), False, True),
    ('1x1/2, (32,256,28,28) -> 512', (32, 256, 28, 28), (512, 256, 1, 1),
     dict(stride=2), False, False),
    ('deconv 4x4/2 pad 1, (64,128,8,8) -> 64', (64, 128, 8, 8), (128, 64, 4, 4),
     dict(stride=2, pad=1), True, False),
    ('3x3 pad 1, 4 groups, (32,64,16,16) -> 64', (32, 64, 16, 16), (64, 16, 3, 3),
     dict(pad=1, groups=4), False, False),
    ('depthwise 3x3 pad 1, (32,32,32,32)', (32, 32, 32, 32), (32, 1, 3, 3),
     dict(pad=1, groups=32), False, False),
]


def variant_step(chainer, xs, ws, kwargs, deconv, channel_major):
    """fwd + bwd of one convolution variant, and the (n, c, oc, k*k, out_hw, groups) of
    the convolution whose three GEMMs it needs."""
    F = chainer.functions
    rng = numpy.random.RandomState(0)
    x = rng.uniform(-1, 1, xs).astype(numpy.float32)
    if channel_major:   # as a convolution's (or a normalization's) output lies
        x = numpy.ascontiguousarray(x.swapaxes(0, 1)).swapaxes(0, 1)
    x = chainer.Variable(x)
    W = chainer.Variable(rng.uniform(-1, 1, ws).astype(numpy.float32))
    fn = F.deconvolution_2d if deconv else F.convolution_2d
    y = fn(x, W, **kwargs)
    gy = rng.uniform(-1, 1, y.shape).astype(numpy.float32)

    def step():
        x.grad = W.grad = None
        out = fn(x, W, **kwargs)
        out.grad = gy
        out.backward()

    groups = kwargs.get('groups', 1)
    if deconv:   # the convolution from y back to x
        shape = (xs[0], ws[1], ws[0], ws[2], xs[2] * xs[3], groups)
    else:
        shape = (xs[0], xs[1], ws[0], ws[2], y.shape[2] * y.shape[3], groups)
    return step, shape


def variant_floor(n, c, oc, k, out_hw, groups):
    rng = numpy.random.default_rng(0)
    ops = []
    for _ in range(groups):
        ops += _conv_gemms(n, c // groups, oc // groups, k, out_hw, rng)
    return _run_all(ops)


# -- PyTorch -----------------------------------------------------------------------------

def torch_convnet_step(batch=64):
    import torch
    torch.set_num_threads(1)
    torch.manual_seed(0)
    nn = torch.nn
    model = nn.Sequential(
        nn.Conv2d(3, 32, 3, padding=1, bias=False), nn.BatchNorm2d(32), nn.ReLU(),
        nn.MaxPool2d(2),
        nn.Conv2d(32, 64, 3, padding=1, bias=False), nn.BatchNorm2d(64), nn.ReLU(),
        nn.MaxPool2d(2), nn.Flatten(), nn.Linear(4096, 10))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    criterion = nn.CrossEntropyLoss()
    rng = numpy.random.RandomState(1)
    x = torch.from_numpy(rng.uniform(-1, 1, (batch, 3, 32, 32)).astype(numpy.float32))
    t = torch.from_numpy(rng.randint(0, 10, batch).astype(numpy.int64))

    def step():
        optimizer.zero_grad()
        out = model(x)
        loss = criterion(out, t)
        (out.argmax(1) == t).float().mean()  # Classifier's accuracy
        loss.backward()
        optimizer.step()

    return step


def _torch_available():
    try:
        import torch  # noqa: F401
    except ImportError:
        return False
    return True


# -- workers in other processes (Chainer 7, other BLAS thread counts) ---------------------

def _import_framework(name):
    if name == 'chainer':
        import chainer
        return chainer
    sys.path.insert(0, ROOT)
    import minichainer
    return minichainer


def _worker_step(framework):
    if framework == 'pytorch':
        return torch_convnet_step()
    if framework == 'floor':
        return convnet_floor()
    return convnet_step(_import_framework(framework))


def worker(args):
    step = _worker_step(args.framework)
    for _ in range(2):
        step()
    result = {}
    if args.worker == 'time':
        # wall time when several BLAS threads work (the other threads' CPU time would
        # not show on this thread's clock)
        clock = time.perf_counter if args.wall else None
        result['ms'] = _time_steps(step, args.steps, clock) * 1e3
    else:  # memory
        import tracemalloc
        tracemalloc.start()
        tracemalloc.reset_peak()
        base = tracemalloc.get_traced_memory()[0]
        step()
        result['peak_mib'] = (tracemalloc.get_traced_memory()[1] - base) / 2 ** 20
        tracemalloc.stop()
    print(json.dumps(result))


def _spawn(python, framework, mode, steps, threads=1, wall=False):
    env = dict(os.environ, OPENBLAS_NUM_THREADS=str(threads), OMP_NUM_THREADS=str(threads),
               MKL_NUM_THREADS=str(threads))
    cmd = [python, os.path.abspath(__file__), '--worker', mode, '--framework', framework,
           '--steps', str(steps)] + (['--wall'] if wall else [])
    out = subprocess.run(cmd, check=True, capture_output=True, text=True, env=env,
                         cwd=HERE)
    return json.loads(out.stdout.strip().splitlines()[-1])


# -- the cases ---------------------------------------------------------------------------

def _interleave(contenders, rounds, steps):
    """{name: median over rounds of the per-round median step time (ms)}."""
    for fn in contenders.values():
        if callable(fn):
            fn()
    per_round = {name: [] for name in contenders}
    for _ in range(rounds):
        for name, fn in contenders.items():
            if callable(fn):
                per_round[name].append(_time_steps(fn, steps) * 1e3)
            else:  # a zero-argument spawner in a tuple: ('spawn', callable)
                per_round[name].append(fn[1]())
    return {name: _median(v) for name, v in per_round.items()}, per_round


def case_convnet(args, mc):
    contenders = {'minichainer': convnet_step(mc), 'gemm_floor': convnet_floor(),
                  'gemm_floor_needed': convnet_floor(first_gx=False)}
    if _torch_available():
        contenders['pytorch'] = torch_convnet_step()
    if args.chainer_python and os.path.exists(args.chainer_python):
        contenders['chainer7'] = ('spawn', lambda: _spawn(
            args.chainer_python, 'chainer', 'time', args.steps)['ms'])
    med, _ = _interleave(contenders, args.rounds, args.steps)
    floor = med['gemm_floor']
    print('convnet step (batch 64, MomentumSGD), ms per step, median of {} rounds'.format(
        args.rounds))
    for name, ms in med.items():
        print('  {:<18} {:8.1f} ms  {:5.2f}x floor'.format(name, ms, ms / floor))
    if 'pytorch' in med:
        print('  minichainer / pytorch: {:.2f}'.format(med['minichainer'] / med['pytorch']))
    else:
        print('  PyTorch is not installed: no PyTorch figure')
    if 'chainer7' not in med:
        print('  Chainer 7 python not found (--chainer-python): no Chainer figure')
    return med


def case_resnet(args, mc):
    med, _ = _interleave({'minichainer': resnet_step(mc), 'gemm_floor': resnet_floor()},
                         args.rounds, args.steps)
    print('ResNet-style stack (3 blocks, 64 ch, 16x16, batch 32): {:.1f} ms vs floor '
          '{:.1f} ms = {:.2f}x'.format(med['minichainer'], med['gemm_floor'],
                                       med['minichainer'] / med['gemm_floor']))
    return med


def case_conv(args, mc):
    med, _ = _interleave({'minichainer': conv_step(mc), 'gemm_floor': conv_floor()},
                         args.rounds, args.steps * 2)
    print('convolution_2d (64,32,16,16)x(64,32,3,3) fwd+bwd: {:.1f} ms vs its GEMMs '
          '{:.1f} ms = {:.2f}x'.format(med['minichainer'], med['gemm_floor'],
                                       med['minichainer'] / med['gemm_floor']))
    return med


def case_memory(args, mc):
    result = {'minichainer': _spawn(sys.executable, 'minichainer', 'memory', 1)['peak_mib']}
    if args.chainer_python and os.path.exists(args.chainer_python):
        result['chainer7'] = _spawn(args.chainer_python, 'chainer', 'memory', 1)['peak_mib']
    print('peak traced memory of one convnet step: ' + ', '.join(
        '{} {:.1f} MiB'.format(k, v) for k, v in result.items()))
    return result


def case_alone(args, mc):
    """The convnet step, its GEMM floor and PyTorch's step each in a fresh process with
    the allocator settings it starts with (rounds interleaved): what a user running one
    of them alone gets. In one process, minichainer's allocator settings
    (`minichainer.utils.allocator`) apply to every contender's later allocations."""
    names = ['minichainer', 'floor'] + (['pytorch'] if _torch_available() else [])
    times = {name: [] for name in names}
    for _ in range(args.rounds):
        for name in names:
            times[name].append(_spawn(sys.executable, name, 'time', args.steps)['ms'])
    med = {name: _median(v) for name, v in times.items()}
    print('convnet step, each contender alone in its process: ' + ', '.join(
        '{} {:.1f} ms'.format(k, v) for k, v in med.items()))
    line = '  minichainer / floor {:.2f}'.format(med['minichainer'] / med['floor'])
    if 'pytorch' in med:
        line += ', / pytorch {:.2f}'.format(med['minichainer'] / med['pytorch'])
    print(line)
    return med


def case_threads(args, mc):
    times = {1: [], 2: []}
    for r in range(args.rounds):
        order = (1, 2) if r % 2 == 0 else (2, 1)
        for threads in order:
            times[threads].append(_spawn(sys.executable, 'minichainer', 'time', args.steps,
                                         threads, wall=True)['ms'])
    one, two = _median(times[1]), _median(times[2])
    print('convnet step: 1 BLAS thread {:.1f} ms, 2 threads {:.1f} ms: speed-up {:.2f}x'
          .format(one, two, one / two))
    return {'1': one, '2': two}


def case_variants(args, mc):
    print('convolution variants, fwd + bwd vs their GEMMs (ms, median of {} rounds)'.format(
        args.rounds))
    result = {}
    for name, xs, ws, kwargs, deconv, channel_major in VARIANTS:
        step, shape = variant_step(mc, xs, ws, kwargs, deconv, channel_major)
        med, _ = _interleave({'minichainer': step, 'gemm_floor': variant_floor(*shape)},
                             args.rounds, args.steps)
        ratio = med['minichainer'] / med['gemm_floor']
        print('  {:<42} {:7.1f} ms vs {:7.1f} ms = {:.2f}x'.format(
            name, med['minichainer'], med['gemm_floor'], ratio))
        result[name] = med
    return result


CASES = {'convnet': case_convnet, 'resnet': case_resnet, 'conv': case_conv,
         'memory': case_memory, 'threads': case_threads, 'alone': case_alone,
         'variants': case_variants}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--rounds', type=int, default=5)
    parser.add_argument('--steps', type=int, default=5, help='timed steps per round')
    parser.add_argument('--cases', default=','.join(CASES),
                        help='comma-separated: ' + ', '.join(CASES))
    parser.add_argument('--chainer-python', default=CHAINER_PYTHON,
                        help='a Python with Chainer 7.8.1 (default %(default)s)')
    parser.add_argument('--json', action='store_true', help='also print the figures as JSON')
    parser.add_argument('--worker', choices=('time', 'memory'), help=argparse.SUPPRESS)
    parser.add_argument('--framework', default='minichainer', help=argparse.SUPPRESS)
    parser.add_argument('--wall', action='store_true', help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        return worker(args)
    sys.path.insert(0, ROOT)
    import minichainer
    results = {}
    for name in args.cases.split(','):
        if name not in CASES:
            parser.error('unknown case {!r}; choose from {}'.format(name, ', '.join(CASES)))
        results[name] = CASES[name](args, minichainer)
        sys.stdout.flush()
    if args.json:
        print(json.dumps(results))


if __name__ == '__main__':
    main()
