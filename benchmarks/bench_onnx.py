"""Exporting ResNet-50 to ONNX, and running it in ONNX Runtime beside minichainer (issue 32).

Figures, ResNet-50 with random weights (``L.ResNet50Layers(pretrained_model=None)``),
224x224 float32 inputs, in one process:

- export time of `minichainer.onnx.export(model, x)` at batch 1 (forward pass, graph
  conversion, initializers, `check_model(full_check=True)` on the serialized model),
  best of ``--repeat``, and its ratio to the forward pass alone (test mode, graph kept as
  the export keeps it); target: export <= 5 s on the project's 2-core machine. Also the
  export of the same model with a dynamic batch (``input_shapes``), written to a file.
- inference time at batch 1 and 32: minichainer's forward (test mode,
  ``no_backprop_mode``) and ONNX Runtime's CPU session of the exported dynamic-batch
  model, best of ``--repeat``; both with ``--threads`` threads (OpenBLAS for NumPy,
  ``intra_op_num_threads`` for ONNX Runtime). No target (information for users).

Run: ``python benchmarks/bench_onnx.py [--threads 1] [--repeat 3] [--batches 1 32]``.
"""
import argparse
import os
import sys
import tempfile
import time


def _parse():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--threads', type=int, default=1)
    parser.add_argument('--repeat', type=int, default=3)
    parser.add_argument('--batches', type=int, nargs='+', default=[1, 32])
    return parser.parse_args()


ARGS = _parse() if __name__ == '__main__' else None
if ARGS is not None:
    for var in ('OPENBLAS_NUM_THREADS', 'OMP_NUM_THREADS', 'MKL_NUM_THREADS'):
        os.environ[var] = str(ARGS.threads)

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numpy  # noqa: E402

import minichainer  # noqa: E402
import minichainer.links as L  # noqa: E402


def best(fn, repeat):
    times = []
    result = None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return min(times), result


class Logits(minichainer.Chain):
    def __init__(self, model):
        super().__init__()
        with self.init_scope():
            self.model = model

    def forward(self, x):
        return self.model(x, layers=['fc6'])['fc6']


def main(args):
    import onnxruntime
    import minichainer.onnx as oc

    model = Logits(L.ResNet50Layers(pretrained_model=None))
    rng = numpy.random.RandomState(0)
    x1 = rng.uniform(-1, 1, (1, 3, 224, 224)).astype(numpy.float32)
    print('ResNet-50, 224x224, {} thread(s); onnx {}, onnxruntime {}, opset {}'.format(
        args.threads, __import__('onnx').__version__, onnxruntime.__version__,
        oc.MAXIMUM_OPSET_VERSION))

    def forward_as_export():
        with minichainer.using_config('train', False):
            return model(x1)
    forward_as_export()   # warm up
    t_forward, _ = best(forward_as_export, args.repeat)
    t_export, proto = best(lambda: oc.export(model, x1), args.repeat)
    print('forward alone (batch 1, graph kept)   {:8.3f} s'.format(t_forward))
    print('export (batch 1)                      {:8.3f} s   = {:.2f}x the forward; '
          '{:.1f} MB, {} nodes'.format(t_export, t_export / t_forward,
                                       proto.ByteSize() / 1e6, len(proto.graph.node)))
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, 'resnet50.onnx')
        t_file, _ = best(lambda: oc.export(model, x1, filename=path, no_testcase=True,
                                           input_shapes=[('batch', 3, 224, 224)]),
                         args.repeat)
        print('export, dynamic batch, to a file      {:8.3f} s   = {:.2f}x the forward'
              .format(t_file, t_file / t_forward))
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = args.threads
        options.inter_op_num_threads = 1
        session = onnxruntime.InferenceSession(path, options,
                                               providers=['CPUExecutionProvider'])
    print('inference        minichainer   ONNX Runtime   ratio (minichainer / ORT)')
    for batch in args.batches:
        x = rng.uniform(-1, 1, (batch, 3, 224, 224)).astype(numpy.float32)

        def mc():
            with minichainer.using_config('train', False), minichainer.no_backprop_mode():
                return model(x).array

        def ort():
            return session.run(None, {'Input_0': x})[0]
        mc()
        ort()
        reps = args.repeat if batch < 8 else max(1, args.repeat - 1)
        t_mc, y_mc = best(mc, reps)
        t_ort, y_ort = best(ort, reps)
        error = float(numpy.abs(y_mc - y_ort).max() / numpy.abs(y_mc).max())
        print('batch {:3d}     {:10.3f} s   {:10.3f} s   {:6.2f}x   (max rel. diff {:.1e})'
              .format(batch, t_mc, t_ort, t_mc / t_ort, error))


if __name__ == '__main__':
    main(ARGS)
