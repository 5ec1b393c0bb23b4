"""Link construction/forward/backward cases shared by the Chainer 7.8.1 reference generator
(``make_chainer_reference.py``) and ``test_chainer_parity.py``.

``run_cases(chainer, L, F, inits)`` works with either package: each case seeds numpy's global
RNG, builds a link with default initializers, runs it on fixed inputs and backpropagates
the sum of squared outputs; the result maps ``case:param/path``, ``case:outN`` and
``case:grad/path`` to arrays.
"""
import numpy as np


def build_cases(chainer, L, F, inits):
    rs = np.random.RandomState(123)

    def inp(*shape):
        return rs.uniform(-1, 1, shape).astype(np.float32)

    def test_mode(f):
        with chainer.using_config('train', False):
            return f()

    cases = {}

    def case(name, make, call=None):
        cases[name] = (make, call)

    case('linear', lambda: L.Linear(5, 4), lambda m: m(inp(3, 5)))
    case('linear_lazy', lambda: L.Linear(4), lambda m: m(inp(3, 2, 3)))
    case('conv', lambda: L.Convolution2D(3, 4, 3, stride=2, pad=1),
         lambda m: m(inp(2, 3, 5, 5)))
    case('conv_groups', lambda: L.Convolution2D(4, 6, 3, groups=2),
         lambda m: m(inp(2, 4, 5, 5)))
    case('deconv', lambda: L.Deconvolution2D(3, 4, 4, stride=2, pad=1),
         lambda m: m(inp(2, 3, 3, 3)))
    case('dwconv', lambda: L.DepthwiseConvolution2D(3, 2, 3), lambda m: m(inp(2, 3, 5, 5)))
    case('dilconv', lambda: L.DilatedConvolution2D(3, 2, 3, dilate=2, pad=2),
         lambda m: m(inp(1, 3, 6, 6)))
    case('convnd', lambda: L.ConvolutionND(3, 2, 3, 2), lambda m: m(inp(1, 2, 3, 3, 3)))
    case('embed', lambda: L.EmbedID(7, 3, ignore_label=-1),
         lambda m: m(np.array([0, 6, -1, 2], np.int32)))
    case('bn', lambda: L.BatchNormalization(3),
         lambda m: (m(inp(4, 3, 2)), m(inp(4, 3, 2)), m.avg_mean, m.avg_var)[-3:])
    case('bn_finetune', lambda: L.BatchNormalization(3),
         lambda m: (m(inp(5, 3), finetune=True), m(inp(4, 3), finetune=True), m.avg_mean,
                    m.avg_var, m.N))
    case('bn_axis', lambda: L.BatchNormalization(axis=(0, 2)), lambda m: m(inp(4, 3, 2)))
    case('ln', lambda: L.LayerNormalization(), lambda m: m(inp(3, 5)))
    case('gn', lambda: L.GroupNormalization(2), lambda m: m(inp(2, 4, 3)))
    case('lstm', lambda: L.LSTM(3, 4), lambda m: (m(inp(3, 3)), m(inp(2, 3)), m.c, m.h)[1:])
    case('lstm_shrink', lambda: L.LSTM(3, 4),
         lambda m: (m(inp(3, 3)), m(inp(2, 3)), m(inp(1, 3)), m.h, m.c))
    case('stateless_lstm', lambda: L.StatelessLSTM(3, 4), lambda m: m(None, None, inp(2, 3)))
    case('gru', lambda: L.GRU(3, 4), lambda m: (m(inp(2, 3)), m(inp(2, 3))))
    case('stateless_gru', lambda: L.StatelessGRU(3, 4), lambda m: m(inp(2, 4), inp(2, 3)))
    case('peephole', lambda: L.StatefulPeepholeLSTM(3, 2), lambda m: (m(inp(2, 3)), m(inp(2, 3))))
    case('zoneout_test', lambda: L.StatefulZoneoutLSTM(3, 2),
         lambda m: test_mode(lambda: (m(inp(2, 3)), m(inp(2, 3)))))
    case('mgu', lambda: L.StatefulMGU(3, 2), lambda m: (m(inp(2, 3)), m(inp(2, 3))))
    case('bilinear', lambda: L.Bilinear(2, 3, 4), lambda m: m(inp(3, 2), inp(3, 3)))
    case('highway', lambda: L.Highway(4), lambda m: m(inp(2, 4)))
    case('maxout', lambda: L.Maxout(3, 2, 4), lambda m: m(inp(2, 3)))
    case('prelu', lambda: L.PReLU((3,)), lambda m: m(inp(2, 3)))
    case('swish', lambda: L.Swish(None), lambda m: m(inp(2, 3)))
    case('scale', lambda: L.Scale(W_shape=(3,), bias_term=True), lambda m: m(inp(2, 3)))
    case('inception', lambda: L.Inception(3, 2, 2, 3, 1, 2, 2), lambda m: m(inp(1, 3, 4, 4)))
    case('inceptionbn', lambda: L.InceptionBN(3, 2, 2, 3, 2, 2, 'avg', proj_pool=2),
         lambda m: m(inp(2, 3, 4, 4)))
    case('mlpconv', lambda: L.MLPConvolution2D(3, (4, 5), 3), lambda m: m(inp(1, 3, 5, 5)))
    case('nstep_lstm', lambda: L.NStepLSTM(2, 3, 4, 0.0),
         lambda m: m(None, None, [inp(2, 3), inp(4, 3), inp(3, 3)]))
    case('nstep_bigru', lambda: L.NStepBiGRU(2, 3, 4, 0.0),
         lambda m: m(None, [inp(2, 3), inp(4, 3)]))
    case('nstep_rnn', lambda: L.NStepBiRNNTanh(1, 3, 2, 0.0),
         lambda m: m(None, [inp(3, 3), inp(1, 3)]))
    case('dropconnect', lambda: L.SimplifiedDropconnect(3, 2), lambda m: m(inp(2, 3), train=False))

    class MLP(chainer.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.l1 = L.Linear(None, 8)
                self.bn = L.BatchNormalization(8)
                self.l2 = L.Linear(8, 3)

        def forward(self, x):
            return self.l2(F.relu(self.bn(self.l1(x))))

    case('classifier', lambda: L.Classifier(MLP()),
         lambda m: m(inp(4, 5), np.array([0, 1, 2, 1], np.int32)))
    case('classifier_copy_init', lambda: L.Classifier(L.Linear(3, 2)).copy('init'),
         lambda m: m.predictor(inp(2, 3)))
    case('lstm_copy_init', lambda: L.LSTM(3, 2).copy('init'))
    case('chainlist_copy_init',
         lambda: chainer.ChainList(L.Linear(3, 2), L.Linear(2, 2)).copy('init'))
    case('repeat_init', lambda: L.Linear(3, 3).repeat(3), lambda m: m(inp(2, 3)))
    case('sequential', lambda: chainer.Sequential(L.Linear(3, 4), F.relu, L.Linear(4, 4),
                                                  L.Linear(4, 2)),
         lambda m: m(inp(2, 3)))

    def param_link(init, shape):
        def make():
            link = chainer.Link()
            with link.init_scope():
                link.W = chainer.Parameter(init(), shape)
            return link
        return make

    for name, init, shape in [
            ('orth', lambda: inits.Orthogonal(), (3, 5)),
            ('orth_tall', lambda: inits.Orthogonal(scale=1.0), (4, 6, 2)),
            ('glorot_n', lambda: inits.GlorotNormal(), (5, 3, 2)),
            ('he_n', lambda: inits.HeNormal(), (5, 3, 2)),
            ('lecun_u', lambda: inits.LeCunUniform(), (5, 3, 2)),
            ('glorot_u', lambda: inits.GlorotUniform(), (5, 3, 2)),
            ('he_u', lambda: inits.HeUniform(), (5, 3, 2)),
            ('uniform', lambda: inits.Uniform(0.3), (5, 3, 2)),
            ('normal', lambda: inits.Normal(0.2), (5, 3, 2)),
            ('identity', lambda: inits.Identity(2.), (4, 4))]:
        case('init_' + name, param_link(init, shape))
    return cases


def run_cases(chainer, L, F, inits):
    out = {}
    for i, (name, (make, call)) in enumerate(sorted(build_cases(chainer, L, F, inits).items())):
        np.random.seed(1000 + i)
        m = make()
        res = call(m) if call is not None else None
        outs = []

        def collect(r):
            if isinstance(r, (list, tuple)):
                for x in r:
                    collect(x)
            elif r is not None:
                outs.append(r)
        collect(res)
        variables = [o for o in outs if isinstance(o, chainer.Variable) and o.dtype.kind == 'f']
        if variables and all(v.creator is not None for v in variables):
            m.cleargrads()
            loss = sum(F.sum(v * v) for v in variables)
            try:
                loss.backward()
            except ValueError:  # Chainer 7.8.1 fails on some backward passes
                m.cleargrads()
            for path, p in m.namedparams():
                if p.grad is not None:
                    out[name + ':grad' + path] = np.asarray(p.grad)
        for path, p in m.namedparams():
            if p.array is not None:
                out[name + ':param' + path] = np.asarray(p.array)
        for j, o in enumerate(outs):
            out['%s:out%d' % (name, j)] = np.asarray(getattr(o, 'array', o))
    return out
