"""`einsum`: differentiable Einstein summation."""
from minichainer import backend
from minichainer import function_node
from minichainer import utils
from minichainer.utils import array as array_utils
from minichainer.utils import type_check

einsum_symbols = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
_symbol_set = set(einsum_symbols)

# Internally the ellipsis '...' is written as the single character '@'.


def _axis_labels(sub, ndim):
    """Label of every axis of an operand: its letter, or `'@k'` for the k-th
    axis covered by the ellipsis (counted from the right end of the ellipsis)."""
    if '@' not in sub:
        return list(sub)
    left, right = sub.split('@')
    n_ell = ndim - len(left) - len(right)
    return list(left) + ['@{}'.format(n_ell - 1 - k) for k in range(n_ell)] + list(right)


def _to_numpy_subs(labels):
    out = []
    ell = False
    for lab in labels:
        if lab.startswith('@'):
            if not ell:
                out.append('...')
                ell = True
        else:
            out.append(lab)
    return ''.join(out)


def _einsum(xp, dtype, in_subs, out_sub, *inputs, check_undefined_ellipsis_sum=False):
    """`xp.einsum` that also sums over the ellipsis when the output omits it.

    With `check_undefined_ellipsis_sum` (the user-facing forward), summing over a
    non-empty ellipsis raises `ValueError` as in Chainer; the gradient computations use
    the summation internally.
    """
    sum_ellipsis = '@' in in_subs and '@' not in out_sub
    if sum_ellipsis:
        subscripts = '{}->...{}'.format(in_subs.replace('@', '...'), out_sub)
    else:
        subscripts = '{}->{}'.format(in_subs, out_sub).replace('@', '...')
    kwargs = {'optimize': True} if len(inputs) >= 3 else {}
    y = xp.einsum(subscripts, *inputs, **kwargs)
    if sum_ellipsis:
        n = y.ndim - len(out_sub)
        if check_undefined_ellipsis_sum and n > 0:
            raise ValueError(
                'einsum: summing over a non-empty ellipsis is not supported, as in Chainer '
                '(subscripts {!r}: the output omits the {} axis(es) covered by ...; write '
                'them in the output, e.g. ...{})'.format(
                    '{}->{}'.format(in_subs, out_sub).replace('@', '...'), n, out_sub))
        if n:
            y = y.sum(axis=tuple(range(n)))
    return utils.force_array(y, dtype)


class EinSum(function_node.FunctionNode):
    """Einstein summation `in_subs -> out_sub` (`'@'` stands for `...`)."""

    def __init__(self, in_subs, out_sub):
        self.in_subs = in_subs
        self.out_sub = out_sub

    def check_type_forward(self, in_types):
        for i, in_type in enumerate(in_types):
            type_check.argname((in_type,), ('x{}'.format(i),))
            type_check.expect(in_type.dtype.kind == 'f')
        in_subs = self.in_subs.split(',')
        type_check.expect(in_types.size() == len(in_subs))
        sizes = {}
        for sub, in_type in zip(in_subs, in_types):
            if '@' in sub:
                # The ellipsis must cover the same shape in every operand: unlike
                # numpy.einsum, F.einsum does not broadcast (as Chainer).
                left, right = sub.split('@')
                pairs = [(i, c) for i, c in enumerate(left)]
                pairs.append((slice(len(left), -len(right) or None), '@'))
                pairs += [(i - len(right), c) for i, c in enumerate(right)]
            else:
                pairs = list(enumerate(sub))
            for axis, char in pairs:
                size = in_type.shape[axis]
                if char in sizes:
                    type_check.expect(sizes[char] == size)
                else:
                    sizes[char] = size

    def forward(self, inputs):
        self.retain_inputs(tuple(range(len(inputs))))
        xp = backend.get_array_module(*inputs)
        dtype = xp.result_type(*[x.dtype for x in inputs])
        return _einsum(xp, dtype, self.in_subs, self.out_sub, *inputs,
                       check_undefined_ellipsis_sum=True),

    def backward(self, indexes, grad_outputs):
        inputs = self.get_retained_inputs()
        g, = grad_outputs
        in_subs = self.in_subs.split(',')
        ret = []
        for i in indexes:
            subs = ','.join(self.out_sub if j == i else s for j, s in enumerate(in_subs))
            args = tuple(g if j == i else x for j, x in enumerate(inputs))
            ret.append(DiagEinSum(subs, in_subs[i], inputs[i].shape).apply(args)[0])
        return tuple(ret)


class DiagEinSum(EinSum):
    """Einstein summation into an output that may repeat letters (diagonals),
    have letters absent from the inputs (broadcast) or a smaller ellipsis
    (summed); used for the gradients of `EinSum`."""

    def __init__(self, in_subs, out_sub, out_shape):
        self.in_subs = in_subs
        self.out_sub = out_sub
        self.out_shape = tuple(out_shape)

    def check_type_forward(self, in_types):
        pass

    def forward(self, inputs):
        self.retain_inputs(tuple(range(len(inputs))))
        xp = backend.get_array_module(*inputs)
        dtype = xp.result_type(*[x.dtype for x in inputs])
        in_subs = self.in_subs.split(',')
        in_letters = set(self.in_subs) - {',', '@'}
        out_labels = _axis_labels(self.out_sub, len(self.out_shape))
        # Distinct output labels in order of appearance and the strides of the
        # (possibly diagonal) view of the result they span.
        y = xp.zeros(self.out_shape, dtype)
        uniq, sizes, strides = [], [], []
        for lab, size, stride in zip(out_labels, y.shape, y.strides):
            if lab in uniq:
                strides[uniq.index(lab)] += stride
            else:
                uniq.append(lab)
                sizes.append(size)
                strides.append(stride)
        view = xp.lib.stride_tricks.as_strided(y, tuple(sizes), tuple(strides))
        has_ell_in = any('@' in s for s in in_subs)
        direct = [lab for lab in uniq
                  if (lab.startswith('@') and has_ell_in) or lab in in_letters]
        ell_out = [lab for lab in direct if lab.startswith('@')]
        letters_out = ''.join(lab for lab in direct if not lab.startswith('@'))
        if ell_out:
            # Compute with the full (broadcast) ellipsis, then sum it down.
            pos = direct.index(ell_out[0])
            sub = letters_out[:pos] + '@' + letters_out[pos:]
            val = _einsum(xp, dtype, self.in_subs, sub, *inputs)
            n_full = val.ndim - len(letters_out)
            target = tuple(sizes[uniq.index(lab)] for lab in ell_out)
            if n_full != len(target) or val.shape[pos:pos + n_full] != target:
                moved = xp.moveaxis(val, list(range(pos, pos + n_full)),
                                    list(range(n_full)))
                moved = array_utils.sum_to(moved, target + moved.shape[n_full:])
                val = xp.moveaxis(moved, list(range(len(target))),
                                  list(range(pos, pos + len(target))))
        else:
            val = _einsum(xp, dtype, self.in_subs, letters_out, *inputs)
        expander = tuple(slice(None) if lab in direct else None for lab in uniq)
        view[...] = val[expander]
        return y,


def _parse_einsum_input(operands):
    """Return `(in_subs, out_sub, operands)` with `'...'` written as `'@'`."""
    if not operands:
        raise ValueError('einsum: no input operands')
    if isinstance(operands[0], str):
        subscripts = operands[0].replace(' ', '')
        operands = list(operands[1:])
        for s in subscripts:
            if s not in '.,->' and s not in _symbol_set:
                raise ValueError('einsum: character {} is not a valid symbol'.format(s))
        if '-' in subscripts or '>' in subscripts:
            if (subscripts.count('-') > 1 or subscripts.count('>') > 1
                    or subscripts.count('->') != 1):
                raise ValueError("einsum: subscripts can only contain one '->', got {!r}"
                                 .format(subscripts))
        subscripts = subscripts.replace('...', '@')
        if '.' in subscripts:
            raise ValueError('einsum: invalid ellipses in {!r}'.format(operands))
    else:
        rest = list(operands)
        ops, subs_list = [], []
        while len(rest) >= 2:
            ops.append(rest.pop(0))
            subs_list.append(rest.pop(0))
        output_list = rest[0] if rest else None
        operands = ops

        def conv(sub):
            out = ''
            for s in sub:
                if s is Ellipsis:
                    out += '@'
                elif isinstance(s, int):
                    out += einsum_symbols[s]
                else:
                    raise TypeError('einsum: sublists must contain ints or Ellipsis, '
                                    'got {!r}'.format(s))
            return out

        subscripts = ','.join(conv(s) for s in subs_list)
        if output_list is not None:
            subscripts += '->' + conv(output_list)
    if '->' in subscripts:
        in_subs, out_sub = subscripts.split('->')
        for c in out_sub:
            if c not in in_subs:
                raise ValueError('einsum: output character {} did not appear in the input'
                                 .format('...' if c == '@' else c))
    else:
        in_subs = subscripts
        flat = subscripts.replace(',', '')
        out_sub = ''.join(s for s in sorted(set(flat)) if s == '@' or flat.count(s) == 1)
    if len(in_subs.split(',')) != len(operands):
        raise ValueError('einsum: number of subscripts ({}) must equal the number of '
                         'operands ({})'.format(len(in_subs.split(',')), len(operands)))
    return in_subs, out_sub, operands


def einsum(*operands):
    """Einstein summation, as `numpy.einsum`.

    Both forms are accepted: `einsum('ij,jk->ik', a, b)` and
    `einsum(a, [0, 1], b, [1, 2], [0, 2])`; `...` broadcasts batch axes.
    As in Chainer, summing over a non-empty `...` (an ellipsis in the inputs but not
    in an explicit output) raises `ValueError`; an empty one is fine.

    Returns:
        Variable: The result.

    Raises:
        ValueError: malformed subscripts, operand count mismatch, or summing over a
            non-empty ellipsis.
    """
    in_subs, out_sub, ops = _parse_einsum_input(operands)
    return EinSum(in_subs=in_subs, out_sub=out_sub).apply(ops)[0]
