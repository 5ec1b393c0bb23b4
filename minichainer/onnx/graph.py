"""`Graph`: the ONNX nodes of the FunctionNodes one forward pass built.

The functions are those the network outputs depend on, found by walking back from the
outputs through `creator_node` and stopping at the network inputs; they are converted in
the order the forward pass applied them (which is topological).  Each input of a
function is named, in this order of preference, after

1. the output of a function converted before it,
2. a network input or a parameter (the Variable, or its array),
3. a persistent array of a link (``param_bn_avg_mean``): exported as an initializer,
4. anything else ("implicit input", e.g. `x + numpy.array(3)`): exported once, as an
   initializer named ``v<N>``, with the value the function was applied to.
"""
import collections

from minichainer.function import FunctionAdapter
from minichainer.onnx import onnx_helper
from minichainer.onnx.functions import CLASS_NAME_ALIASES
from minichainer.onnx.functions.converter import FunctionConverterParams


class UnsupportedFunctionError(ValueError):
    """No converter is registered for a FunctionNode of the graph."""


def _chainer_name(function):
    name = getattr(function, 'custom_function_node_name', None)
    if name is not None:
        return name
    cls_name = type(function).__name__
    return CLASS_NAME_ALIASES.get(cls_name, cls_name)


class Graph:
    """Convert the functions between `network_inputs` and `network_outputs`.

    Args:
        context (Context): the export's names.
        converters (dict): `Chainer FunctionNode name -> converter(params)`.
        opset_version (int): the opset asked for.
        network_inputs (OrderedDict): `name -> Variable`.
        network_outputs (list of (Variable, pinned name or None)).
        records (list): `(function, in_data)` in the order the forward applied them
            (see `RetainInputHook`).
    """

    def __init__(self, context, converters, opset_version, network_inputs, network_outputs,
                 records=()):
        self.context = context
        self.converters = converters
        self.specified_opset_version = opset_version
        self.network_inputs = network_inputs
        self.network_outputs = network_outputs
        self.graph = []
        self.func_name_counts = collections.defaultdict(int)
        self.used_param_names = []
        self.used_persistents = collections.OrderedDict()   # name -> array
        self.output_names = []
        self._records = {id(f): (i, f, in_data) for i, (f, in_data) in enumerate(records)}
        for f, in_data in records:
            context.function_inputs[id(f)] = in_data
            if isinstance(f, FunctionAdapter):
                context.function_inputs[id(f.function)] = in_data
        self._input_node_names = {}
        for name, var in network_inputs.items():
            self._input_node_names[id(var.node)] = name
        self._produced = {}   # id(VariableNode) -> name
        self._keep = []
        self.function_nodes = self._functions()

    def _functions(self):
        seen = {}
        stack = [var.node for var, _ in self.network_outputs]
        while stack:
            node = stack.pop()
            if id(node) in self._input_node_names:
                continue
            creator = node.creator_node
            if creator is None or id(creator) in seen:
                continue
            seen[id(creator)] = creator
            stack.extend(creator.inputs)

        def order(f):
            record = self._records.get(id(f))
            return (0, f.rank, 0) if record is None else (1, record[0], 0)
        return sorted(seen.values(), key=order)

    def _input_name(self, function, index, node):
        name = self._produced.get(id(node))
        if name is not None:
            return name
        name = self._input_node_names.get(id(node))
        if name is not None:
            return name
        context = self.context
        var = node.get_variable_or_none()
        record = self._records.get(id(function))
        if record is not None:
            array = record[2][index]
        elif node.data is not None:
            array = node.data
        else:
            array = var.array if var is not None else None
        for obj in (var, array):
            if obj is not None and id(obj) in context.name_list:
                name = context.name_list[id(obj)][0]
                if name in context.implicit_inputs or name in self.used_persistents:
                    return name
                if id(obj) in self._param_ids or name in self.network_inputs:
                    if name not in self.used_param_names and name not in self.network_inputs:
                        self.used_param_names.append(name)
                    return name
        if array is not None and id(array) in context.persistents:
            name, value = context.persistents[id(array)]
            self.used_persistents[name] = value
            context.set_name(array, name)
            return name
        if array is None:
            raise ValueError(
                'export: input {} of {} has no value (an uninitialized variable?)'.format(
                    index, _chainer_name(function)))
        name = context.get_name(array)
        context.implicit_inputs[name] = array
        return name

    def convert_to_onnx_node(self, node_function):
        function = node_function
        if isinstance(node_function, FunctionAdapter):
            function = node_function.function
        func_name = _chainer_name(function)
        base_name = '{}_{}'.format(func_name, self.func_name_counts[func_name])
        self.func_name_counts[func_name] += 1

        input_names = [self._input_name(node_function, i, node)
                       for i, node in enumerate(node_function.inputs)]
        output_names = []
        n_out = len(node_function.outputs)
        for i, ref in enumerate(node_function.outputs):
            node = ref()
            name = self._pinned_outputs.get(id(node)) if node is not None else None
            if name is None:
                name = base_name if n_out == 1 else '{}_{}'.format(base_name, i)
            if node is not None:
                self._produced[id(node)] = name
                self._keep.append(node)
            output_names.append(name)

        converter = self.converters.get(func_name)
        if converter is None:
            raise UnsupportedFunctionError(
                'export: no ONNX converter for the function {!r} (FunctionNode class {}) at '
                'opset_version {}; supply one with export(..., external_converters={{{!r}: '
                'converter}}), where converter(params) gets a FunctionConverterParams '
                '(func, opset_version, input_names, output_names, context) and returns '
                'ONNX NodeProtos'.format(func_name, type(function).__name__,
                                         self.specified_opset_version, func_name))
        onnx_helper.set_func_name(base_name)
        onnx_helper.set_opset_version(self.specified_opset_version)
        params = FunctionConverterParams(function, self.specified_opset_version,
                                         input_names, output_names, self.context)
        nodes = converter(params)
        if nodes is None:
            raise ValueError('export: the converter of {!r} returned None instead of ONNX '
                             'nodes'.format(func_name))
        if not isinstance(nodes, (list, tuple)):
            nodes = [nodes]
        self.graph.extend(self.context.constants)
        self.context.constants.clear()
        self.graph.extend(nodes)

    def to_onnx_graph(self):
        self._param_ids = self.context.param_ids
        self._pinned_outputs = {id(var.node): name for var, name in self.network_outputs
                                if name is not None}
        try:
            for function in self.function_nodes:
                self.convert_to_onnx_node(function)
        finally:
            onnx_helper.set_opset_version(None)
        for i, (var, pinned) in enumerate(self.network_outputs):
            node = var.node
            name = self._produced.get(id(node))
            if name is None:
                source = self._input_node_names.get(id(node))
                if source is None:
                    raise ValueError(
                        'export: output {} of the model is not computed from its inputs (no '
                        'FunctionNode created it; a constant or a parameter cannot be a '
                        'graph output)'.format(i))
                name = pinned or '{}_Identity'.format(source)
                onnx_helper.set_func_name(name)
                self.graph.append(onnx_helper.make_node('Identity', [source], [name]))
                self._produced[id(node)] = name
            self.output_names.append(name)
