"""Source generators of N-D pooling kernels (`chainer.functions.pooling.pooling_nd_kernel`).

minichainer runs on NumPy and compiles no kernel; what is meaningful on a CPU is the
code generation itself: `PoolingNDKernelForward.generate` and
`PoolingNDKernelBackward.generate` return, as in Chainer, the
`(in_params, out_params, operation, name)` strings of an elementwise CUDA kernel
for `ndim` spatial axes, built from the `before`/`main`/`after` parts that a
subclass (max or average pooling) supplies. Results are cached per class and
`ndim`.
"""
import functools


def _vars(prefix, n):
    return ['{}_{}'.format(prefix, i) for i in range(n)]


def _product(names):
    return functools.reduce('{} * {}'.format, names)


class _Writer(object):
    """Lines with two-space indentation that opens/closes around loop bodies."""

    def __init__(self):
        self.depth = 0
        self.lines = []

    def write(self, line, indent=None):
        if indent == 'dec':
            self.depth -= 1
        self.lines.append('  ' * self.depth + line)
        if indent == 'inc':
            self.depth += 1

    def get(self):
        return '\n'.join(self.lines)


def _memoized_generate(klass, ndim):
    cache = klass.__dict__.get('_generated')
    if cache is None:
        cache = {}
        setattr(klass, '_generated', cache)
    if ndim not in cache:
        cache[ndim] = klass()._generate(ndim)
    return cache[ndim]


def _params(first, raws_and_params, names):
    """'<first>, <raws...>, int32 <name>..., <params...>' as Chainer writes them."""
    if type(raws_and_params) is tuple:
        raws, params = raws_and_params
    else:
        raws, params = [], raws_and_params
    return ', '.join([first] + list(raws) + ['int32 {}'.format(v) for v in names]
                     + list(params))


def _unravel(index_names, sizes, suffix=''):
    """Declarations splitting the flat index `i` into per-axis coordinates."""
    decls = []
    for k, name in enumerate(index_names):
        tail = sizes[k + 1:]
        if tail:
            decls.append('int {} = i / ({}) % {}{};'.format(
                name, _product(tail), sizes[k], suffix[k] if suffix else ''))
        else:
            decls.append('int {} = i % {}{};'.format(
                name, sizes[k], suffix[k] if suffix else ''))
    return decls


class _PoolingNDKernel(object):
    """What the forward and backward generators share."""

    _kind = None

    def name(self):
        raise NotImplementedError()

    def in_params(self):
        return []

    def out_params(self):
        return []

    def before(self):
        raise NotImplementedError()

    def after(self, xs):
        raise NotImplementedError()

    @classmethod
    def generate(klass, ndim):
        """`(in_params, out_params, operation, name)` for `ndim` axes (cached)."""
        return _memoized_generate(klass, ndim)

    def _generate(self, ndim):
        self.ndim = ndim
        self.ds = _vars('d', ndim)
        self.outs = _vars('out', ndim)
        self.ks = _vars('k', ndim)
        self.ss = _vars('s', ndim)
        self.ps = _vars('p', ndim)
        in_params = self._in_params()
        out_params = self._out_params()
        operation = self._operation()
        name = '{}_pool_{}d_{}'.format(self.name(), ndim, self._kind)
        return in_params, out_params, operation, name

    def _in_params(self):
        return _params(self._first_in, self.in_params(),
                       self.ds + self.outs + self.ks + self.ss + self.ps)

    def _out_params(self):
        return ', '.join([self._first_out] + list(self.out_params()))

    def _loops(self, loop_vars, lows, highs, sizes, base, main):
        writer = _Writer()
        offsets = _vars('offset', self.ndim)
        inner_sizes = sizes[1:] + ['1']
        outer = [base] + offsets[:-1]
        for v, lo, hi, off, prev, size in zip(loop_vars, lows, highs, offsets, outer,
                                              inner_sizes):
            writer.write('for (int {0} = {1}; {0} < {2}; ++{0}) {{'.format(v, lo, hi),
                         'inc')
            writer.write('int {} = {} * ({} + {});'.format(off, size, v, prev))
        for line in main(offsets[-1]).split('\n'):
            writer.write(line)
        for _ in loop_vars:
            writer.write('}', 'dec')
        return [writer.get()]


class PoolingNDKernelForward(_PoolingNDKernel):
    """Forward pooling kernel source: one output element per thread.

    Subclasses give `main(offset, xs)`, the body run for each input element of
    the window (`in[offset]`), and `after(out_xs)`, which writes `out`.
    """

    _kind = 'fwd'
    _first_in = 'raw T in'
    _first_out = 'T out'

    def main(self, offset, xs):
        raise NotImplementedError()

    def _operation(self):
        out_xs = _vars('out_x', self.ndim)
        lines = ['int c0 = i / ({});'.format(_product(self.outs))]
        lines += _unravel(out_xs, self.outs)
        lows, highs = _vars('in_x0', self.ndim), _vars('in_x1', self.ndim)
        for lo, hi, d, o, k, s, p in zip(lows, highs, self.ds, out_xs, self.ks, self.ss,
                                         self.ps):
            lines.append('int {} = max(0, {} * {} - {});'.format(lo, o, s, p))
            lines.append('int {} = min({}, {} * {} + {} - {});'.format(hi, d, o, s, k, p))
        lines.append(self.before())
        xs = _vars('x', self.ndim)
        lines += self._loops(xs, lows, highs, self.ds, 'd_0 * c0',
                             lambda offset: self.main(offset, xs))
        lines.append(self.after(out_xs))
        return '\n'.join(lines)


class PoolingNDKernelBackward(_PoolingNDKernel):
    """Backward pooling kernel source: one input element per thread.

    Subclasses give `main(offset, xs, out_xs)`, run for each output whose window
    holds the element (`gy[offset]`), and `after(xs)`, which writes `gx`.
    """

    _kind = 'bwd'
    _first_in = 'raw T gy'
    _first_out = 'T gx'

    def main(self, offset, xs, out_xs):
        raise NotImplementedError()

    def _operation(self):
        xs = _vars('x', self.ndim)
        lines = ['int c0  = i / ({});'.format(_product(self.ds))]
        lines += _unravel(xs, self.ds, [' + {}'.format(p) for p in self.ps])
        lows, highs = _vars('out_x0', self.ndim), _vars('out_x1', self.ndim)
        for lo, hi, x, o, k, s in zip(lows, highs, xs, self.outs, self.ks, self.ss):
            lines.append('int {} = max(0, ({} - {} + {}) / {});'.format(lo, x, k, s, s))
            lines.append('int {} = min({}, ({} + {}) / {});'.format(hi, o, x, s, s))
        lines.append(self.before())
        out_xs = _vars('out_x', self.ndim)
        lines += self._loops(out_xs, lows, highs, self.outs, 'out_0 * c0',
                             lambda offset: self.main(offset, xs, out_xs))
        lines.append(self.after(xs))
        return '\n'.join(lines)
