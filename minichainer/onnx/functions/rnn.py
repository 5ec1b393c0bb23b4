"""Converters of the stacked RNN functions `n_step_gru` and `n_step_lstm` as ONNX GRU /
LSTM nodes, one per layer.

minichainer does not patch functions during an export, so by default
`F.n_step_gru`/`F.n_step_lstm` (and the `L.NStepGRU`/`L.NStepLSTM` links) export as
the functions they are made of (linear, sigmoid, tanh ...), which is exact.  To get
ONNX's fused GRU/LSTM ops instead, call the function through onnx_chainer's
`replace_func.fake_as_funcnode(F.n_step_gru, 'n_step_gru')` (or `'n_step_lstm'`) in
the model; its node is converted here (uni-directional, sequences of equal length).
"""
import numpy

from minichainer.onnx import onnx_helper
from minichainer.onnx.functions.opset_version import support
from minichainer.variable import Variable

# Chainer's order of the matrices of one layer -> ONNX's gate order
_GRU_W = (1, 0, 2)            # ONNX z, r, h  <- Chainer (reset 0, update 1, new 2)
_LSTM_W = (0, 3, 1, 2)        # ONNX i, o, f, c <- Chainer (input 0, forget 1, cell 2, output 3)


def _names(func, input_names, context, values):
    # Consume `input_names` for the Variables in `values` (nested lists); arrays that
    # were attributes of the wrapped node become initializers.
    it = iter(input_names)
    counter = [0]

    def take(v):
        if isinstance(v, (list, tuple)):
            return [take(e) for e in v]
        if v is None:
            return None
        if isinstance(v, Variable):
            return next(it)
        counter[0] += 1
        return context.add_param(numpy.asarray(v), 'arg{}'.format(counter[0]))

    return [take(v) for v in values]


def _split(gb, name, n, axis):
    # `n` equal parts along `axis` (Split wants num_outputs from opset 18)
    if n == 1:
        return [gb.op('Identity', [name])]
    outputs = ['{}_{}'.format(gb.node_name(), i) for i in range(n)]
    attrs = {'axis': axis}
    if (onnx_helper.get_opset_version() or 7) >= 18:
        attrs['num_outputs'] = n
    gb.op_output_named('Split', [name], outputs, **attrs)
    return outputs


def _rnn(kind, func, opset_version, input_names, output_names, context):
    if kind == 'GRU':
        n_layers, dropout_ratio, hx, ws, bs, xs = func.args[:6]
        cx = None
        order, n_w = _GRU_W, 3
    else:
        n_layers, dropout_ratio, hx, cx, ws, bs, xs = func.args[:7]
        order, n_w = _LSTM_W, 4
    if len({len(x) for x in xs}) > 1:
        raise NotImplementedError('{}: only time steps of equal batch size (sequences of '
                                  'equal length) are exportable as an ONNX {} node'.format(
                                      func.custom_function_node_name, kind))
    values = [hx, cx, ws, bs, xs] if kind == 'LSTM' else [hx, ws, bs, xs]
    named = _names(func, input_names, context, values)
    if kind == 'LSTM':
        hx_name, cx_name, ws_names, bs_names, xs_names = named
    else:
        (hx_name, ws_names, bs_names, xs_names), cx_name = named, None
    hidden_size = int(ws[0][n_w].shape[0])
    gb = onnx_helper.GraphBuilder()
    hx_layers = _split(gb, hx_name, n_layers, 0) if hx_name is not None else None
    cx_layers = _split(gb, cx_name, n_layers, 0) if cx_name is not None else None
    # X: (seq_length, batch, input) from the time steps' (batch, input)
    x = gb.op('Concat', [gb.axes_op('Unsqueeze', [name], [0]) for name in xs_names], axis=0)
    hys, cys = [], []
    y = None
    for layer in range(n_layers):
        if layer > 0:
            x = gb.axes_op('Squeeze', [y], [1])    # drop num_directions
        w, b = ws_names[layer], bs_names[layer]
        w_in = gb.axes_op('Unsqueeze', [gb.op('Concat', [w[i] for i in order], axis=0)], [0])
        w_rec = gb.axes_op('Unsqueeze', [gb.op('Concat', [w[n_w + i] for i in order],
                                               axis=0)], [0])
        bias = gb.axes_op('Unsqueeze', [gb.op(
            'Concat', [b[i] for i in order] + [b[n_w + i] for i in order], axis=0)], [0])
        inputs = [x, w_in, w_rec, bias, '',
                  hx_layers[layer] if hx_layers is not None else '']
        if kind == 'GRU':
            y, hy = gb.op('GRU', inputs, num_outputs=2, hidden_size=hidden_size,
                          linear_before_reset=1)
        else:
            inputs.append(cx_layers[layer] if cx_layers is not None else '')
            y, hy, cy = gb.op('LSTM', inputs, num_outputs=3, hidden_size=hidden_size)
            cys.append(cy)
        hys.append(hy)
    structure = func.reconstruct_return_value(output_names)
    if kind == 'GRU':
        hy_name, ys_names = structure
        cy_name = None
    else:
        hy_name, cy_name, ys_names = structure
    # Y: (seq_length, 1, batch, hidden) -> one (batch, hidden) output per time step
    y = gb.axes_op('Squeeze', [y], [1])
    for i, part in enumerate(_split(gb, y, len(ys_names), 0)):
        gb.axes_op('Squeeze', [part], [0], output_names=[ys_names[i]])
    gb.op_output_named('Concat', hys, [hy_name], axis=0)
    if cy_name is not None:
        gb.op_output_named('Concat', cys, [cy_name], axis=0)
    return gb.nodes()


@support((7,))
def convert_n_step_gru(func, opset_version, input_names, output_names, context):
    """`n_step_gru` wrapped by `fake_as_funcnode(F.n_step_gru, 'n_step_gru')`: one ONNX
    GRU (linear_before_reset=1) per layer; `hx` may be None."""
    return _rnn('GRU', func, opset_version, input_names, output_names, context)


@support((7,))
def convert_n_step_lstm(func, opset_version, input_names, output_names, context):
    """`n_step_lstm` wrapped by `fake_as_funcnode(F.n_step_lstm, 'n_step_lstm')`: one
    ONNX LSTM per layer; `hx`/`cx` may be None."""
    return _rnn('LSTM', func, opset_version, input_names, output_names, context)
