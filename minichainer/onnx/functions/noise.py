"""Converter of dropout."""
import numpy

import minichainer
from minichainer.onnx import onnx_helper
from minichainer.onnx.functions.opset_version import support


@support((7, 12))
def convert_Dropout(func, opset_version, input_names, output_names, context):
    """Dropout: the identity in an exported test-mode graph.

    Before opset 12 the ratio is an attribute and ONNX's Dropout is the identity at
    inference.  From 12 the ratio is an input and, when the export runs with
    ``train=True``, ``training_mode`` is set so that a runtime drops at random as
    Chainer does in training (its random draws are not Chainer's).
    """
    ratio = float(func.dropout_ratio)
    if opset_version < 12:
        return onnx_helper.make_node('Dropout', input_names, output_names, ratio=ratio),
    dtype = numpy.dtype(func.inputs[0].dtype)
    inputs = list(input_names) + [context.add_const(numpy.array(ratio, dtype=dtype), 'ratio')]
    if minichainer.config.train:
        inputs.append(context.add_const(numpy.array(True), 'training_mode'))
    return onnx_helper.make_node('Dropout', inputs, output_names),
