"""`export_testcase`: a model and its inputs/outputs in the ONNX test-case layout."""
import os
import warnings

import numpy

from minichainer import backend
from minichainer.onnx.export import export
from minichainer.onnx.onnx_helper import cleanse_param_name
from minichainer.onnx.onnx_helper import write_tensor_pb
from minichainer import functions
from minichainer.link import Link


def _host(array):
    if isinstance(array, numpy.ndarray):
        return array
    return backend.to_numpy(array)


def export_testcase(model, args, out_dir, output_grad=False, **kwargs):
    """Export `model` to ``out_dir/model.onnx`` with a test case for ONNX backends.

    Writes ``out_dir/test_data_set_0/input_<i>.pb`` and ``output_<i>.pb`` (TensorProtos
    named as the graph's inputs and outputs) and, with `output_grad`, the gradient of
    every parameter, ``gradient_<i>.pb`` (named ``param_<path>``), of the sum of the
    outputs (each output's gradient is ones).  Every file is written atomically, and
    nothing is written when the export fails.

    Args:
        model, args: as for [`export`][minichainer.onnx.export.export].
        out_dir (str): the folder to write (created if missing).
        output_grad (bool): also write the parameters' gradients.
        **kwargs: passed to `export` (`opset_version`, `input_names`, ...).
    """
    if isinstance(model, Link):
        model.cleargrads()
    onnx_model, inputs, outputs = export(model, args, filename=None, return_named_inout=True,
                                         no_testcase=True, **kwargs)
    os.makedirs(out_dir, exist_ok=True)
    # the model itself, atomically, by export's writer
    from minichainer.onnx.export import _write
    _write(onnx_model, os.path.join(out_dir, 'model.onnx'), kwargs.get('save_text', False))

    test_data_dir = os.path.join(out_dir, 'test_data_set_0')
    os.makedirs(test_data_dir, exist_ok=True)
    for i, (name, var) in enumerate(inputs.items()):
        write_tensor_pb(os.path.join(test_data_dir, 'input_{}.pb'.format(i)), name,
                        _host(var.array))
    for i, (name, var) in enumerate(outputs.items()):
        write_tensor_pb(os.path.join(test_data_dir, 'output_{}.pb'.format(i)), name,
                        _host(var.array))

    if not output_grad:
        return
    if not isinstance(model, Link):
        raise TypeError('export_testcase: output_grad=True needs a Link model (its '
                        'parameters get the gradients), got {}'.format(type(model).__name__))
    outs = list(outputs.values())
    for out in outs:
        out.grad = backend.get_array_module(out.array).ones_like(out.array)
    if len(outs) == 1:
        outs[0].backward()
    else:
        total = None
        for out in outs:
            s = functions.sum(out * out.grad)
            total = s if total is None else total + s
        total.backward()
    seen = set()
    index = 0
    for name, param in model.namedparams():
        if id(param) in seen:
            continue
        seen.add(id(param))
        if param.grad is None:
            warnings.warn('Parameter `{}` does not have gradient value'.format(name))
        else:
            write_tensor_pb(os.path.join(test_data_dir, 'gradient_{}.pb'.format(index)),
                            cleanse_param_name(name), _host(param.grad))
        index += 1
