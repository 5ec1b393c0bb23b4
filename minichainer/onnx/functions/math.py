"""ONNX converters of the math functions (onnx_chainer's `functions/math.py`).

Beyond onnx_chainer's set, the elementwise functions that ONNX has an operator (or a
two-node composition) for are converted as well: `Arctanh`, `Erf`, `Erfc`, `Log2`,
`Log10`, `Log1p`, `Expm1`, `Fmod`, `SquaredDifference`, `MultiAdd` (`F.add` of several
variables), `SumTo`, `BatchL2NormSquared`, `Cumsum`, `EinSum`, `TensorDot` and `BatchDet`.
`F.sign` makes no FunctionNode (as in Chainer): `convert_sign` serves it wrapped with
`replace_func.fake_as_funcnode(F.sign, 'sign')`, as onnx_chainer's exporter wrapped it.
"""
import numpy

from minichainer.onnx.functions.array import _Emitter
from minichainer.onnx.functions.array import _from
from minichainer.onnx.functions.array import _normalize_axis
from minichainer.onnx.functions.array import _simple
from minichainer.onnx.functions.opset_version import support


def _dtype(func, i=0):
    return numpy.dtype(func.inputs[i].dtype)


def _with_constant(op_type, func, opset_version, input_names, output_names, context,
                   const_first):
    e = _Emitter(opset_version, context)
    value = e.const(numpy.asarray(func.value, dtype=_dtype(func)), 'value')
    inputs = [value, input_names[0]] if const_first else [input_names[0], value]
    e.op(op_type, inputs)
    return e.nodes(output_names)


# -- arithmetic ------------------------------------------------------------------------

@support(_from(7))
def convert_Add(func, opset_version, input_names, output_names, context):
    return _simple('Add', func, opset_version, input_names, output_names, context)


@support(_from(7))
def convert_Sub(func, opset_version, input_names, output_names, context):
    return _simple('Sub', func, opset_version, input_names, output_names, context)


@support(_from(7))
def convert_Mul(func, opset_version, input_names, output_names, context):
    return _simple('Mul', func, opset_version, input_names, output_names, context)


@support(_from(7))
def convert_Div(func, opset_version, input_names, output_names, context):
    return _simple('Div', func, opset_version, input_names, output_names, context)


@support(_from(7))
def convert_PowVarVar(func, opset_version, input_names, output_names, context):
    return _simple('Pow', func, opset_version, input_names, output_names, context)


@support(_from(7))
def convert_AddConstant(func, opset_version, input_names, output_names, context):
    return _with_constant('Add', func, opset_version, input_names, output_names,
                          context, False)


@support(_from(7))
def convert_SubFromConstant(func, opset_version, input_names, output_names, context):
    return _with_constant('Sub', func, opset_version, input_names, output_names,
                          context, True)


@support(_from(7))
def convert_MulConstant(func, opset_version, input_names, output_names, context):
    return _with_constant('Mul', func, opset_version, input_names, output_names,
                          context, False)


@support(_from(7))
def convert_DivFromConstant(func, opset_version, input_names, output_names, context):
    return _with_constant('Div', func, opset_version, input_names, output_names,
                          context, True)


@support(_from(7))
def convert_PowVarConst(func, opset_version, input_names, output_names, context):
    return _with_constant('Pow', func, opset_version, input_names, output_names,
                          context, False)


@support(_from(7))
def convert_PowConstVar(func, opset_version, input_names, output_names, context):
    return _with_constant('Pow', func, opset_version, input_names, output_names,
                          context, True)


@support(_from(7))
def convert_MultiAdd(func, opset_version, input_names, output_names, context):
    if len(input_names) == 1:
        return _simple('Identity', func, opset_version, input_names, output_names,
                       context)
    shapes = {tuple(x.shape) for x in func.inputs}
    if opset_version < 8 and len(shapes) > 1:
        # Sum broadcasts from opset 8; Add has always done so
        e = _Emitter(opset_version, context)
        y = input_names[0]
        for x in input_names[1:]:
            y = e.op('Add', [y, x])
        return e.nodes(output_names)
    return _simple('Sum', func, opset_version, input_names, output_names, context)


@support(_from(7))
def convert_Square(func, opset_version, input_names, output_names, context):
    return _simple('Mul', func, opset_version, [input_names[0], input_names[0]],
                   output_names, context)


@support(_from(7))
def convert_SquaredDifference(func, opset_version, input_names, output_names, context):
    e = _Emitter(opset_version, context)
    d = e.op('Sub', input_names)
    e.op('Mul', [d, d])
    return e.nodes(output_names)


@support(_from(7))
def convert_LinearInterpolate(func, opset_version, input_names, output_names, context):
    # p * x + (1 - p) * y
    e = _Emitter(opset_version, context)
    p, x, y = input_names
    one = e.const(numpy.array(1, dtype=_dtype(func)), 'one')
    q = e.op('Sub', [one, p])
    e.op('Add', [e.op('Mul', [p, x]), e.op('Mul', [q, y])])
    return e.nodes(output_names)


@support(_from(7))
def convert_Clip(func, opset_version, input_names, output_names, context):
    e = _Emitter(opset_version, context)
    if opset_version < 11:
        attrs = {}
        if func.x_min is not None:
            attrs['min'] = float(func.x_min)
        if func.x_max is not None:
            attrs['max'] = float(func.x_max)
        e.op('Clip', input_names, **attrs)
    else:
        dtype = _dtype(func)
        lo = '' if func.x_min is None else e.const(numpy.array(func.x_min, dtype), 'x_min')
        hi = '' if func.x_max is None else e.const(numpy.array(func.x_max, dtype), 'x_max')
        inputs = [input_names[0], lo] + ([hi] if hi else [])
        e.op('Clip', inputs)
    return e.nodes(output_names)


@support(_from(7))
def convert_MatMul(func, opset_version, input_names, output_names, context):
    e = _Emitter(opset_version, context)
    a, b = input_names

    def swap_last(name, ndim):
        perm = list(range(ndim))
        perm[-1], perm[-2] = perm[-2], perm[-1]
        return e.op('Transpose', [name], perm=perm)

    ndim_a, ndim_b = len(func.inputs[0].shape), len(func.inputs[1].shape)
    if func.transa and ndim_a > 1:
        a = swap_last(a, ndim_a)
    if func.transb and ndim_b > 1:
        b = swap_last(b, ndim_b)
    y = e.op('MatMul', [a, b])
    if getattr(func, 'transc', False):
        y = swap_last(y, max(ndim_a, ndim_b))
    dtype = getattr(func, 'dtype', None)
    if dtype is not None and numpy.dtype(dtype) != _dtype(func):
        e.cast(y, dtype)
    return e.nodes(output_names)


@support(_from(7))
def convert_Maximum(func, opset_version, input_names, output_names, context):
    return _simple('Max', func, opset_version, input_names, output_names, context)


@support(_from(7))
def convert_Minimum(func, opset_version, input_names, output_names, context):
    return _simple('Min', func, opset_version, input_names, output_names, context)


@support(_from(10))
def convert_Fmod(func, opset_version, input_names, output_names, context):
    return _simple('Mod', func, opset_version, input_names, output_names, context,
                   fmod=1)


# -- elementwise functions -------------------------------------------------------------

def _unary(op_type, since=7):
    @support(_from(since))
    def converter(func, opset_version, input_names, output_names, context):
        return _simple(op_type, func, opset_version, input_names, output_names, context)
    converter.__doc__ = 'Exported as ONNX `{}` (opset {} and newer).'.format(
        op_type, since)
    return converter


convert_Neg = _unary('Neg')
convert_Absolute = _unary('Abs')
convert_Exp = _unary('Exp')
convert_Log = _unary('Log')
convert_Sqrt = _unary('Sqrt')
convert_Sin = _unary('Sin')
convert_Cos = _unary('Cos')
convert_Tan = _unary('Tan')
convert_Arcsin = _unary('Asin')
convert_Arccos = _unary('Acos')
convert_Arctan = _unary('Atan')
convert_Identity = _unary('Identity')
convert_Cosh = _unary('Cosh', 9)
convert_Sinh = _unary('Sinh', 9)
convert_Arctanh = _unary('Atanh', 9)
convert_Erf = _unary('Erf', 9)
convert_sign = _unary('Sign', 9)


@support(_from(7))
def convert_RsqrtGPU(func, opset_version, input_names, output_names, context):
    # onnx_chainer's name for Chainer's GPU rsqrt; minichainer's rsqrt is 1 / sqrt(x)
    # (DivFromConstant of Sqrt), so this serves external graphs and name lookups only
    e = _Emitter(opset_version, context)
    e.op('Reciprocal', [e.op('Sqrt', input_names)])
    return e.nodes(output_names)


@support(_from(9))
def convert_Erfc(func, opset_version, input_names, output_names, context):
    e = _Emitter(opset_version, context)
    one = e.const(numpy.array(1, dtype=_dtype(func)), 'one')
    e.op('Sub', [one, e.op('Erf', input_names)])
    return e.nodes(output_names)


def _log_base(base):
    @support(_from(7))
    def converter(func, opset_version, input_names, output_names, context):
        e = _Emitter(opset_version, context)
        scale = e.const(numpy.array(1.0 / numpy.log(base), dtype=_dtype(func)), 'scale')
        e.op('Mul', [e.op('Log', input_names), scale])
        return e.nodes(output_names)
    return converter


convert_Log2 = _log_base(2.0)
convert_Log10 = _log_base(10.0)


@support(_from(7))
def convert_Log1p(func, opset_version, input_names, output_names, context):
    e = _Emitter(opset_version, context)
    one = e.const(numpy.array(1, dtype=_dtype(func)), 'one')
    e.op('Log', [e.op('Add', [input_names[0], one])])
    return e.nodes(output_names)


@support(_from(7))
def convert_Expm1(func, opset_version, input_names, output_names, context):
    e = _Emitter(opset_version, context)
    one = e.const(numpy.array(1, dtype=_dtype(func)), 'one')
    e.op('Sub', [e.op('Exp', input_names), one])
    return e.nodes(output_names)


# -- reductions ------------------------------------------------------------------------

def _axes(func, axis=None):
    axis = func.axis if axis is None else axis
    if axis is None:
        return None
    if isinstance(axis, int):
        axis = (axis,)
    ndim = len(func.inputs[0].shape)
    return sorted(_normalize_axis(a, ndim) for a in axis)


def _reduction(op_type):
    @support(_from(7))
    def converter(func, opset_version, input_names, output_names, context):
        e = _Emitter(opset_version, context)
        e.reduce(op_type, input_names[0], _axes(func), getattr(func, 'keepdims', False))
        return e.nodes(output_names, input_names[0])
    converter.__doc__ = 'Exported as ONNX `{}`.'.format(op_type)
    return converter


convert_Sum = _reduction('ReduceSum')
convert_Mean = _reduction('ReduceMean')
convert_Max = _reduction('ReduceMax')
convert_Min = _reduction('ReduceMin')
convert_Prod = _reduction('ReduceProd')
convert_LogSumExp = _reduction('ReduceLogSumExp')


@support(_from(7))
def convert_SumTo(func, opset_version, input_names, output_names, context):
    in_shape = tuple(func.inputs[0].shape)
    shape = tuple(func.target_shape)
    lead = len(in_shape) - len(shape)
    axes = list(range(lead)) + [lead + i for i, s in enumerate(shape)
                                if s == 1 and in_shape[lead + i] != 1]
    e = _Emitter(opset_version, context)
    y = input_names[0]
    if axes:
        y = e.reduce('ReduceSum', y, axes, True)
    if lead:
        y = e.squeeze(y, list(range(lead)))
    return e.nodes(output_names, input_names[0])


@support(_from(7))
def convert_BatchL2NormSquared(func, opset_version, input_names, output_names, context):
    ndim = len(func.inputs[0].shape)
    e = _Emitter(opset_version, context)
    x = input_names[0]
    e.reduce('ReduceSum', e.op('Mul', [x, x]), list(range(1, ndim)), False)
    return e.nodes(output_names)


@support(_from(11))
def convert_Cumsum(func, opset_version, input_names, output_names, context):
    e = _Emitter(opset_version, context)
    x = input_names[0]
    if func.axis is None:
        x, axis = e.reshape(x, [-1]), 0
    else:
        axis = _normalize_axis(func.axis, len(func.inputs[0].shape))
    e.op('CumSum', [x, e.const(numpy.array(axis, dtype=numpy.int64), 'axis')])
    return e.nodes(output_names)


def _argminmax(op_type):
    @support(_from(7))
    def converter(func, opset_version, input_names, output_names, context):
        e = _Emitter(opset_version, context)
        x = input_names[0]
        if func.axis is None:
            x, axis = e.reshape(x, [-1]), 0
        else:
            axis = _normalize_axis(func.axis, len(func.inputs[0].shape))
        y = e.op(op_type, [x], axis=axis, keepdims=0)
        # Chainer's argmax/argmin return int32; ONNX's int64
        e.cast(y, numpy.int32)
        return e.nodes(output_names)
    return converter


convert_ArgMax = _argminmax('ArgMax')
convert_ArgMin = _argminmax('ArgMin')


@support(_from(12))
def convert_EinSum(func, opset_version, input_names, output_names, context):
    # minichainer writes the ellipsis '@'; ONNX Einsum '...'
    equation = '{}->{}'.format(func.in_subs, func.out_sub).replace('@', '...')
    return _simple('Einsum', func, opset_version, input_names, output_names, context,
                   equation=equation)


@support(_from(11))
def convert_BatchDet(func, opset_version, input_names, output_names, context):
    return _simple('Det', func, opset_version, input_names, output_names, context)


@support(_from(12))
def convert_TensorDot(func, opset_version, input_names, output_names, context):
    # as an Einsum: contracted axes share a letter; the free axes of a and b go where
    # c_axes puts them (the forward pass has set a_axes, b_axes and c_axes)
    if func.a_axes is None or func.b_axes is None:
        raise ValueError('TensorDot: the contracted axes are unknown (the function has '
                         'not run forward)')
    (a_free, a_con), (b_con, b_free) = func.a_axes, func.b_axes
    ndim_a, ndim_b = len(func.inputs[0].shape), len(func.inputs[1].shape)
    letters = iter('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ')
    a_sub = [None] * ndim_a
    b_sub = [None] * ndim_b
    for i, j in zip(a_con, b_con):
        a_sub[i] = b_sub[j] = next(letters)
    for i in a_free:
        a_sub[i] = next(letters)
    for j in b_free:
        b_sub[j] = next(letters)
    c_a, c_b = func.c_axes if func.c_axes is not None else (
        list(range(len(a_free))), list(range(len(a_free), len(a_free) + len(b_free))))
    out = [None] * (len(a_free) + len(b_free))
    for i, c in enumerate(c_a):
        out[c] = a_sub[a_free[i]]
    for j, c in enumerate(c_b):
        out[c] = b_sub[b_free[j]]
    e = _Emitter(opset_version, context)
    y = e.op('Einsum', input_names, equation='{},{}->{}'.format(
        ''.join(a_sub), ''.join(b_sub), ''.join(out)))
    if func.dtype is not None and numpy.dtype(func.dtype) != _dtype(func):
        e.cast(y, func.dtype)
    return e.nodes(output_names)
