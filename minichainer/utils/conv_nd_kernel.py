"""Source generators of the N-d `im2col`/`col2im` element-wise CUDA kernels
(Chainer's `chainer.utils.conv_nd_kernel`).

Nothing here needs a GPU: `Im2colNDKernel.generate(ndim)` and
`Col2imNDKernel.generate(ndim)` return `(in_params, out_params, operation, name)`,
the four strings a `cupy.ElementwiseKernel` is built from, exactly as Chainer 7.8.1
writes them. minichainer's own `im2col`/`col2im` are strided-view array code that
runs on any array module (`minichainer.utils.conv_nd`) and do not use these.

The small string helpers (`mulexp`, `andexp`, `muladdexp`, `succ_sublists`,
`vars`, `Writer`) are public in Chainer and kept under the same names.
"""
from minichainer.backends import cuda


def mulexp(xs, init=None):
    """`'x0 * x1 * ...'` (`init` first when given)."""
    xs = list(xs)
    if init is not None:
        xs = [init] + xs
    return ' * '.join(xs)


def andexp(xs, init=None):
    """`'x0 && x1 && ...'` (`init` first when given)."""
    xs = list(xs)
    if init is not None:
        xs = [init] + xs
    return ' && '.join(xs)


def muladdexp(xs, ys, init=None):
    """Horner form of a mixed-radix index: folding `(y + x * acc)` over `zip(xs, ys)`
    starting from `init` (or from the first `x` when `init` is None, as Chainer)."""
    pairs = list(zip(xs, ys))
    if init is None:
        acc, pairs = pairs[0], pairs[1:]
    else:
        acc = init
    for x, y in pairs:
        acc = '({} + {} * {})'.format(y, x, acc)
    return acc


def map_(fn, *lst):
    """`list(map(fn, *lst))`."""
    return list(map(fn, *lst))


def succ_sublists(xs):
    """The successive tails of `xs`: `[xs[0:], xs[1:], ..., xs[-1:]]`."""
    return [xs[i:] for i in range(len(xs))]


def vars(prefix, n):  # noqa: A001 - Chainer's name
    """`['prefix_0', ..., 'prefix_{n-1}']`."""
    return ['{}_{}'.format(prefix, i) for i in range(n)]


class Writer(object):
    """Lines of code with two-space indentation.

    `write(line, indent)`: `'inc'` indents the following lines, `'dec'` this and the
    following lines one level less, `'decinc'` only this line.
    """

    def __init__(self):
        self._indent = 0
        self._lines = []

    def write(self, line, indent=None):
        if indent in ('dec', 'decinc'):
            self._indent -= 1
        self._lines.append('  ' * self._indent + line)
        if indent in ('inc', 'decinc'):
            self._indent += 1

    def get(self):
        return '\n'.join(self._lines)


def _int32_params(head, *names):
    return ', '.join([head] + ['int32 {}'.format(v) for v in names])


def _index_decls(names, sizes, tail=()):
    """`int name_j = i / (sizes[j+1:] + tail) % sizes[j];` (`i % ...` for the last)."""
    lines = []
    for j, name in enumerate(names):
        rest = list(sizes[j + 1:]) + list(tail)
        if rest:
            lines.append('int {} = i / ({}) % {};'.format(name, mulexp(rest), sizes[j]))
        else:
            lines.append('int {} = i % {};'.format(name, sizes[j]))
    return lines


class _NDKernel(object):
    """What the two generators share: the parameter names of an `ndim` kernel."""

    name_format = None

    @staticmethod
    def _names(ndim):
        return tuple(vars(p, ndim) for p in ('d', 'out', 'k', 's', 'p', 'di'))

    def _generate(self, ndim):
        ds, outs, ks, ss, ps, dis = self._names(ndim)
        in_params = self._in_params(ds, outs, ks, ss, ps, dis)
        operation = self._operation(ndim, ds, outs, ks, ss, ps, dis)
        return in_params, self._out_params(), operation, self.name_format.format(ndim)


class Im2colNDKernel(_NDKernel):
    """Generator of the `im2col_{ndim}d` kernel: `col` (c, k..., out...) from
    `img`; zero outside the image."""

    name_format = 'im2col_{}d'

    def _in_params(self, ds, outs, ks, ss, ps, dilate):
        return _int32_params('raw T img', *(ds + outs + ks + ss + ps + dilate))

    def _out_params(self):
        return 'T col'

    def _compile_c0(self, outs, ks):
        return ['int c0 = i / ({});'.format(mulexp(ks + outs))]

    def _compile_kx(self, ndim, outs, ks):
        kxs = vars('kx', ndim)
        return _index_decls(kxs, ks, outs), kxs

    def _compile_out_x(self, ndim, outs):
        out_xs = vars('out_x', ndim)
        return _index_decls(out_xs, outs), out_xs

    def _compile_main(self, ndim, ds, ks, ss, ps, dilate, kxs, out_xs):
        w = Writer()
        ins = vars('in', ndim)
        for name, kx, out_x, s, p, di in zip(ins, kxs, out_xs, ss, ps, dilate):
            w.write('int {} = {} * {} + {} * {} - {};'.format(name, kx, di, out_x, s, p))
        inside = andexp(['0 <= {0} && {0} < {1}'.format(v, d) for v, d in zip(ins, ds)])
        w.write('if ({}) {{'.format(inside), indent='inc')
        idxs = vars('idx', ndim)
        for idx, name, d, prev in zip(idxs, ins, ds, ['c0'] + idxs[:-1]):
            w.write('int {} = {} + {} * {};'.format(idx, name, d, prev))
        w.write('col = img[{}];'.format(idxs[-1]))
        w.write('} else {', indent='decinc')
        w.write('col = (T)0;')
        w.write('}', indent='dec')
        return [w.get()]

    def _operation(self, ndim, ds, outs, ks, ss, ps, dilate):
        kx_decls, kxs = self._compile_kx(ndim, outs, ks)
        out_decls, out_xs = self._compile_out_x(ndim, outs)
        main = self._compile_main(ndim, ds, ks, ss, ps, dilate, kxs, out_xs)
        return '\n'.join(self._compile_c0(outs, ks) + kx_decls + out_decls + main)

    @staticmethod
    @cuda.memoize()
    def generate(ndim):
        return _im2col_nd_kernel._generate(ndim)


_im2col_nd_kernel = Im2colNDKernel()


class Col2imNDKernel(_NDKernel):
    """Generator of the `col2im_{ndim}d` kernel: each `img` element sums the
    `col` entries whose window covers it."""

    name_format = 'col2im_{}d'

    def _in_params(self, ds, outs, ks, ss, ps, dilate):
        return _int32_params('raw T col', *(ds + outs + ks + ss + ps + dilate))

    def _out_params(self):
        return 'T img'

    def _compile_c0(self, ds):
        return ['int c0 = i / ({});'.format(mulexp(ds))]

    def _compile_x(self, ndim, ds):
        xs = vars('x', ndim)
        return _index_decls(xs, ds), xs

    def _compile_loop(self, ndim, outs, ks, ss, ps, xs, dilate):
        def loop(main, ndim, ks, ss):
            w = Writer()
            out_xs = vars('out_x', ndim)
            kxs = vars('kx', ndim)
            for out, out_x, kx, s, p, x, k, di in zip(outs, out_xs, kxs, ss, ps, xs, ks,
                                                      dilate):
                w.write('for (int {0} = 0; {0} < {1}; ++{0}) {{'.format(kx, k),
                        indent='inc')
                w.write('int {} = {} + {} - {} * {};'.format(out_x, x, p, kx, di))
                w.write('if (0 > {0} || {0} >= {1} * {2}) continue;'.format(out_x, out, s))
                w.write('if ({} % {} != 0) continue;'.format(out_x, s))
                w.write('{} /= {};'.format(out_x, s))
            for line in main(ks, kxs, out_xs).split('\n'):
                w.write(line)
            for _ in out_xs:
                w.write('}', indent='dec')
            return [w.get()]
        return loop

    def _compile_procedure(self, outs, xs):
        def main(ks, kxs, out_xs):
            index = muladdexp(outs, out_xs, muladdexp(ks, kxs, 'c0'))
            return 'val = val + col[{}];'.format(index)
        return ['T val = 0;'], main, ['img = val;']

    def _operation(self, ndim, ds, outs, ks, ss, ps, dilate):
        x_decls, xs = self._compile_x(ndim, ds)
        loop = self._compile_loop(ndim, outs, ks, ss, ps, xs, dilate)
        before, main, after = self._compile_procedure(outs, xs)
        return '\n'.join(self._compile_c0(ds) + x_decls + before
                         + loop(main, ndim, ks, ss) + after)

    @staticmethod
    @cuda.memoize()
    def generate(ndim):
        return _col2im_nd_kernel._generate(ndim)


_col2im_nd_kernel = Col2imNDKernel()
