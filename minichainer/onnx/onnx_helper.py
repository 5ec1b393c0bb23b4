"""Helpers for converters: node names, `GraphBuilder`, tensor files, opset-dependent ops.

As in onnx_chainer, the exporter sets the name of the function being converted
(`set_func_name`, e.g. ``ReLU_0``) before calling its converter; `make_node` and
`GraphBuilder` name the nodes they create after it.
"""
import numpy

from minichainer.onnx._deps import require_onnx

onnx = require_onnx()
from onnx import numpy_helper  # noqa: E402

__func_name = None
__opset_version = None


def set_func_name(func_name):
    """Set the name of the Chainer function being converted (done by the exporter)."""
    global __func_name
    __func_name = func_name


def set_opset_version(opset_version):
    """Set the opset of the export running (done by the exporter)."""
    global __opset_version
    __opset_version = opset_version


def get_opset_version():
    """The opset the running export asked for (not lowered by `@support`), or None."""
    return __opset_version


def get_func_name():
    """The name of the function being converted, e.g. ``'ReLU_0'``."""
    if __func_name is None:
        raise RuntimeError('onnx_helper.get_func_name: no function is being converted '
                           '(call it from a converter)')
    return __func_name


def make_node(*args, **kwargs):
    """`onnx.helper.make_node` with the node named after the function being converted."""
    return onnx.helper.make_node(*args, name=get_func_name(), **kwargs)


# ops whose ``axes`` became an input: since opset 13 for these, 18 for the other reductions
_AXES_INPUT_SINCE = {'Squeeze': 13, 'Unsqueeze': 13, 'ReduceSum': 13}
_REDUCE_18 = ('ReduceMean', 'ReduceMax', 'ReduceMin', 'ReduceProd', 'ReduceL1',
              'ReduceL2', 'ReduceLogSum', 'ReduceLogSumExp', 'ReduceSumSquare')


def axes_as_input(op_name, opset_version):
    """True when `op_name` takes its axes as a second input (not an attribute) at
    `opset_version`: Squeeze, Unsqueeze and ReduceSum from 13, the other Reduce* from 18."""
    since = _AXES_INPUT_SINCE.get(op_name, 18 if op_name in _REDUCE_18 else None)
    return since is not None and opset_version >= since


class GraphBuilder:
    """Build consecutive ONNX nodes of one converter, named ``<func>_tmp_<i>``."""

    def __init__(self):
        self._nodes = []
        self._func_name = get_func_name()

    def node_name(self):
        return '{}_tmp_{}'.format(self._func_name, len(self._nodes))

    @property
    def node_count(self):
        """How many nodes were built so far."""
        return len(self._nodes)

    def op(self, op_name, input_names, num_outputs=1, **kwargs):
        """Add a node; return its output name (a tuple of names when `num_outputs` > 1)."""
        if num_outputs == 1:
            output_names = [self.node_name()]
        else:
            output_names = ['{}_{}'.format(self.node_name(), i) for i in range(num_outputs)]
        return self.op_output_named(op_name, input_names, output_names, **kwargs)

    def op_output_named(self, op_name, input_names, output_names, **kwargs):
        """Add a node whose outputs are `output_names`; return them as `op` does."""
        if isinstance(input_names, str):
            raise TypeError('GraphBuilder.op: input_names must be a list of names, got the '
                            'str {!r}'.format(input_names))
        node = onnx.helper.make_node(op_name, list(input_names), list(output_names),
                                     name=self.node_name(), **kwargs)
        self._nodes.append(node)
        if len(output_names) == 1:
            return node.output[0]
        return tuple(node.output)

    def const(self, array, dtype=None):
        """Add a Constant node holding `array` (any array-like; `dtype` casts it) and
        return its output name."""
        array = numpy.asarray(array, dtype=dtype)
        return self.op('Constant', [], value=numpy_helper.from_array(array))

    def axes_op(self, op_name, input_names, axes, opset_version=None, output_names=None,
                **kwargs):
        """Add a Squeeze/Unsqueeze/Reduce* node with `axes` given the way the opset
        wants them (attribute, or an int64 input from 13/18).  `axes=None` leaves them
        out (every axis, for a reduction).

        The opset is the export's own (`get_opset_version`), whatever `opset_version`
        says: a converter decorated with `@support((7,))` is called with 7 for any
        request, which would be the wrong opset here; `opset_version` is used only
        outside an export.
        """
        if get_opset_version() is not None:
            opset_version = get_opset_version()
        input_names = list(input_names)
        if axes is not None:
            axes = [int(a) for a in axes]
            if axes_as_input(op_name, opset_version):
                input_names.append(self.const(numpy.array(axes, dtype=numpy.int64)))
            else:
                kwargs['axes'] = axes
        if output_names is None:
            return self.op(op_name, input_names, **kwargs)
        return self.op_output_named(op_name, input_names, output_names, **kwargs)

    def nodes(self, output_names=None):
        """All nodes built so far, as a tuple (a converter's return value); with
        `output_names`, the last node's outputs are renamed to them."""
        if output_names is not None:
            last = self._nodes[-1]
            if len(last.output) != len(output_names):
                raise ValueError('GraphBuilder.nodes: the last node has {} outputs, {} names '
                                 'given'.format(len(last.output), len(output_names)))
            last.output[:] = list(output_names)
        return tuple(self._nodes)


def write_tensor_pb(filename, name, value):
    """Write `value` (a NumPy array) as a TensorProto named `name` to `filename`,
    atomically."""
    from minichainer.utils import atomic_write
    data = numpy_helper.from_array(numpy.asarray(value), name).SerializeToString()

    def write(fd, tmp_path):
        with open(fd, 'wb') as f:
            f.write(data)

    import os
    directory, base = os.path.split(os.path.abspath(os.fspath(filename)))
    atomic_write.write_atomically(directory, base, write, makedirs=False)


def cleanse_param_name(name):
    """A link path as an ONNX name: ``'/conv1/W'`` -> ``'param_conv1_W'``."""
    return 'param' + name.replace('/', '_')


def is_support_non_standard_domain():
    """True: ONNX >= 1.5 skips the schema check of ops of a non-standard domain."""
    return True
