"""`export`: a minichainer model's forward pass as an ONNX model (onnx_chainer's API)."""
import collections
import io
import os
import warnings

import numpy

import minichainer
from minichainer import backend
from minichainer.function_hook import FunctionHook
from minichainer.link_hook import LinkHook
from minichainer.onnx._deps import newest_opset
from minichainer.onnx._deps import require_onnx

onnx = require_onnx()
from onnx import helper  # noqa: E402
from onnx import numpy_helper  # noqa: E402
from onnx import shape_inference  # noqa: E402

from minichainer.onnx.context import Context  # noqa: E402
from minichainer.onnx.graph import Graph  # noqa: E402
from minichainer.onnx.graph import UnsupportedFunctionError  # noqa: E402,F401
from minichainer.onnx import mapping  # noqa: E402
from minichainer.link import Link
from minichainer.utils import experimental
from minichainer.variable import Variable

#: The oldest opset the converters are written for (onnx_chainer's).
MINIMUM_OPSET_VERSION = 7
#: The newest opset that both the installed onnx and ONNX Runtime support; the default.
MAXIMUM_OPSET_VERSION = newest_opset()


def _is_array(x):
    return isinstance(x, backend.get_array_types())


def _to_host(array):
    # a NumPy copy of a device array (CuPy); NumPy arrays as they are
    if isinstance(array, Variable):
        array = array.array
    if isinstance(array, numpy.ndarray):
        return array
    return backend.to_numpy(array)


def _check_input(x, where):
    # A network input: a Variable or a NumPy array; a GPU/ChainerX array raises the error
    # minichainer raises for one everywhere.
    if isinstance(x, Variable):
        if x.array is None:
            raise ValueError('export: {} is a Variable holding no array'.format(where))
        backend.get_device_from_array(x.array)
        return x
    if _is_array(x):
        return x
    if x is not None and hasattr(x, 'shape') and hasattr(x, 'dtype'):
        backend.get_device_from_array(x)   # raises for a CuPy array without CuPy
        if type(x).__module__.partition('.')[0] == 'chainerx':
            raise RuntimeError('export: {} is a ChainerX array; minichainer has no ChainerX '
                               'backend (chainerx.is_available() is False)'.format(where))
    raise TypeError('export: {} must be a minichainer.Variable or a numpy.ndarray, got {}'
                    .format(where, type(x).__name__))


def convert_parameter(parameter, context):
    """A Parameter, Variable or array as a TensorProto named by `context`."""
    if isinstance(parameter, Variable):
        array = parameter.array
    elif _is_array(parameter):
        array = parameter
    else:
        raise ValueError(
            'convert_parameter: the parameter must be a Parameter, a Variable or an '
            'ndarray, got {}'.format(type(parameter).__name__))
    return numpy_helper.from_array(_to_host(array), context.get_name(parameter))


class _FunctionRecorder(FunctionHook):
    name = 'onnx_export_recorder'

    def __init__(self, records):
        self.records = records

    def forward_preprocess(self, function, in_data):
        self.records.append((function, in_data))


class RetainInputHook(LinkHook):
    """Record, during a forward pass, every FunctionNode applied and the arrays it was
    applied to, so that the exporter can name and export inputs whose Variables are
    gone by the time the graph is read (arrays made inside a link's forward).

    Uses the function and link hook mechanisms; nothing is patched.  `records` holds
    `(function, in_data)` in application order; `retain_inputs` (as onnx_chainer's hook)
    the inputs that were not a Variable passed to a link: temporaries made in a
    forward.
    """

    name = 'RetainInputHook'

    def __init__(self):
        self.link_inputs = set()
        self.retain_inputs = []
        self.records = []
        self._scanned = 0
        self._recorder = _FunctionRecorder(self.records)

    def _extract_inputs(self, args):
        if isinstance(args, Variable):
            return {id(args)}
        ids = set()
        if isinstance(args, (list, tuple)):
            for a in args:
                ids |= self._extract_inputs(a)
        elif isinstance(args, dict):
            for a in args.values():
                ids |= self._extract_inputs(a)
        return ids

    def _scan(self):
        for function, in_data in self.records[self._scanned:]:
            for i, node in enumerate(getattr(function, 'inputs', None) or ()):
                var = node.get_variable_or_none()
                if var is None:
                    self.retain_inputs.append(in_data[i])
                elif id(var) not in self.link_inputs:
                    self.retain_inputs.append(var)
        self._scanned = len(self.records)

    def forward_preprocess(self, args):
        self.link_inputs |= self._extract_inputs(args.args)
        self.link_inputs |= self._extract_inputs(args.kwargs)

    def forward_postprocess(self, args):
        self._scan()
        self.link_inputs.clear()

    def __enter__(self):
        self._recorder.__enter__()
        try:
            return super().__enter__()
        except BaseException:
            self._recorder.__exit__(None, None, None)
            raise

    def __exit__(self, *exc_details):
        try:
            super().__exit__(*exc_details)
        finally:
            self._recorder.__exit__(*exc_details)
            self._scan()


def _input_shape_list(args, shapes):
    # ``input_shapes`` as a list in the order of the network inputs (validated).
    if isinstance(args, (list, tuple)):
        if not isinstance(shapes, list) or len(args) != len(shapes):
            raise ValueError(
                'export: input_shapes must be a list of one shape per input ({} inputs), '
                'got {!r}'.format(len(args), shapes))
        for i, (arg, shape) in enumerate(zip(args, shapes)):
            if not isinstance(shape, (tuple, list)) or len(arg.shape) != len(shape):
                raise ValueError(
                    'export: input_shapes[{}] must have {} dimensions like input {}, got {!r}'
                    .format(i, len(arg.shape), i, shape))
        return [tuple(s) for s in shapes]
    if isinstance(args, dict):
        if not isinstance(shapes, (list, dict)) or len(args) != len(shapes):
            raise ValueError(
                'export: input_shapes must be a list or dict of one shape per input ({} '
                'inputs), got {!r}'.format(len(args), shapes))
        if isinstance(shapes, list):
            shapes = dict(zip(args.keys(), shapes))
        out = []
        for key, arg in args.items():
            if key not in shapes:
                raise ValueError('export: input_shapes has no entry for the input {!r}'
                                 .format(key))
            shape = shapes[key]
            if not isinstance(shape, (tuple, list)) or len(arg.shape) != len(shape):
                raise ValueError(
                    'export: input_shapes[{!r}] must have {} dimensions like the input, got '
                    '{!r}'.format(key, len(arg.shape), shape))
            out.append(tuple(shape))
        return out
    if isinstance(shapes, list):
        if len(shapes) != 1:
            raise ValueError('export: input_shapes for a single input must be one shape, '
                             'got {!r}'.format(shapes))
    elif isinstance(shapes, tuple):
        shapes = [shapes]
    else:
        raise ValueError('export: input_shapes for a single input must be a tuple, got {}'
                         .format(type(shapes).__name__))
    if not isinstance(shapes[0], (tuple, list)) or len(args.shape) != len(shapes[0]):
        raise ValueError('export: input_shapes must have {} dimensions like the input, got '
                         '{!r}'.format(len(args.shape), shapes[0]))
    return [tuple(shapes[0])]


def _names_for(kind, values, names, prefix):
    # The graph names of the network inputs/outputs (``values``: list or dict).
    n = len(values)
    if names is None:
        return ['{}_{}'.format(prefix, i) for i in range(n)]
    if isinstance(values, dict):
        if isinstance(names, dict):
            if set(names) != set(values):
                raise ValueError(
                    'export: {} must name every {} key ({}), got keys {}'.format(
                        kind, prefix.lower(), sorted(values), sorted(names)))
            return [names[k] for k in values]
        if isinstance(names, (list, tuple)) and len(names) == n:
            return list(names)
    else:
        if isinstance(names, str) and n == 1:
            return [names]
        if isinstance(names, (list, tuple)) and len(names) == n:
            return list(names)
        if isinstance(names, dict):
            raise ValueError('export: {} is a dict but the {}s are not'.format(
                kind, prefix.lower()))
    raise ValueError('export: {} must give {} name{} (one per {}), got {!r}'.format(
        kind, n, '' if n == 1 else 's', prefix.lower(), names))


def _check_opset(opset_version):
    if opset_version is None:
        return MAXIMUM_OPSET_VERSION
    if isinstance(opset_version, bool) or not isinstance(
            opset_version, (int, numpy.integer)):
        raise TypeError('export: opset_version must be an int, got {!r}'.format(
            opset_version))
    if not MINIMUM_OPSET_VERSION <= opset_version <= MAXIMUM_OPSET_VERSION:
        raise ValueError(
            'export: opset_version must be between {} and {} (the newest the installed onnx '
            'and ONNX Runtime support), got {}'.format(
                MINIMUM_OPSET_VERSION, MAXIMUM_OPSET_VERSION, opset_version))
    return int(opset_version)


def export(model, args, filename=None, export_params=True, graph_name='Graph',
           save_text=False, opset_version=None, input_names=None, output_names=None,
           train=False, return_named_inout=False, external_converters=None,
           external_opset_imports=None, input_shapes=None, no_testcase=False):
    """Export `model`'s forward pass on `args` as an ONNX model.

    Runs `model(*args)` (list/tuple), `model(**args)` (dict) or `model(args)` once with
    `config.train = train` and reads the graph its FunctionNodes built; every function
    becomes ONNX nodes through its converter for `opset_version`.  Parameters become
    initializers named after their link path (``/conv1/W`` -> ``param_conv1_W``), as
    do persistent arrays a function uses (``param_bn_avg_mean``).  Nothing in the model
    changes (BN statistics are not updated in train mode).

    Args:
        model: a Link (or any callable) to export.
        args: the network inputs: a Variable or ndarray, or a list, tuple or dict of them.
        filename (str or file-like): where to write the model (atomically); None writes
            nothing.
        export_params (bool): put the parameters in the file as initializers; False
            makes them graph inputs instead.
        graph_name (str): the graph's name.
        save_text (bool): also write the text form to ``filename + '.txt'``.
        opset_version (int): the default-domain opset, `MINIMUM_OPSET_VERSION` to
            `MAXIMUM_OPSET_VERSION` (the default).
        input_names, output_names (str, list or dict): graph names of the inputs/outputs
            (default ``Input_<i>`` and the name of the function that computed each output,
            e.g. ``LinearFunction_1``).
        train (bool): run the forward pass in train mode.
        return_named_inout (bool): also return the named inputs and outputs.
        external_converters (dict): `FunctionNode name -> converter(params)`, added to (or
            replacing) the built-in ones.
        external_opset_imports (dict): `domain -> version` of custom ops' domains.
        input_shapes: a shape per input (tuple, or list/dict of them as `args`) whose
            entries may be a str (a named symbolic dimension) or None (unknown), e.g.
            ``('batch', 3, 224, 224)``; the output shapes are then inferred.
        no_testcase (bool): silence the DeprecationWarning that writing a file without
            test data gets (see `export_testcase`).

    Returns:
        onnx.ModelProto, or `(model, inputs, outputs)` with `return_named_inout`, the
        latter two OrderedDicts `name -> Variable`.

    Raises:
        ValueError / TypeError: bad arguments (the message names the argument);
            `UnsupportedFunctionError` (a ValueError) for a function without converter.
    """
    if not no_testcase and filename is not None:
        warnings.warn('Exporting ONNX without testcases is deprecated. Use export_testcase '
                      'instead', DeprecationWarning)
    with minichainer.using_config('train', train), \
            minichainer.using_config('in_recomputing', True), \
            minichainer.using_config('enable_backprop', True), \
            minichainer.using_config('record_non_differentiable', True):
        return _export(model, args, filename, export_params, graph_name, save_text,
                       opset_version, input_names, output_names, return_named_inout,
                       external_converters, external_opset_imports, input_shapes)


def _as_variables(args):
    # (container for the call, flat list of (key, Variable)); the caller's args untouched.
    def wrap(x, where):
        x = _check_input(x, where)
        return x if isinstance(x, Variable) else Variable(x)

    if isinstance(args, (list, tuple)):
        call = [wrap(a, 'args[{}]'.format(i)) for i, a in enumerate(args)]
        return call, list(enumerate(call))
    if isinstance(args, dict):
        call = collections.OrderedDict(
            (k, wrap(a, 'args[{!r}]'.format(k))) for k, a in args.items())
        return call, list(call.items())
    if isinstance(args, Variable) or _is_array(args) or hasattr(args, 'shape'):
        var = wrap(args, 'args')
        return var, [(0, var)]
    raise TypeError('export: args must be a Variable, an ndarray, or a list, tuple or dict '
                    'of them, got {}'.format(type(args).__name__))


def _flat_outputs(outputs):
    if isinstance(outputs, (list, tuple)):
        flat, keys = list(outputs), list(range(len(outputs)))
    elif isinstance(outputs, dict):
        flat, keys = list(outputs.values()), list(outputs.keys())
    elif isinstance(outputs, Variable):
        flat, keys = [outputs], [0]
    else:
        raise RuntimeError('export: Unexpected output type from the model: {} (the model '
                           'must return a Variable, or a list, tuple or dict of Variables)'
                           .format(type(outputs).__name__))
    if not flat:
        raise ValueError('export: the model returned no outputs (an empty {}); it must '
                         'return a Variable computed from its inputs'.format(
                             type(outputs).__name__))
    for k, o in zip(keys, flat):
        if not isinstance(o, Variable):
            raise ValueError('export: The all \'outputs\' must be Chainer Variable: output {!r}'
                             ' of the model is a {}'.format(k, type(o).__name__))
    return flat


def _export(model, args, filename, export_params, graph_name, save_text, opset_version,
            input_names, output_names, return_named_inout, external_converters,
            external_opset_imports, input_shapes):
    opset_version = _check_opset(opset_version)
    if not callable(model):
        raise TypeError('export: model must be a Link or another callable, got {}'.format(
            type(model).__name__))
    call_args, flat_inputs = _as_variables(args)
    if input_shapes is not None:
        input_shapes = _input_shape_list(
            args if isinstance(args, (list, tuple, dict)) else call_args, input_shapes)
    in_values = call_args if isinstance(call_args, (list, dict)) else [call_args]
    in_names = _names_for('input_names', in_values, input_names, 'Input')
    if len(set(in_names)) != len(in_names):
        raise ValueError('export: input_names must be distinct, got {}'.format(in_names))
    converters = dict(mapping.converters)
    if external_converters:
        if not isinstance(external_converters, dict):
            raise TypeError('export: external_converters must be a dict of FunctionNode name '
                            '-> converter, got {}'.format(type(external_converters).__name__))
        experimental('external_converters')
        converters.update(external_converters)

    context = Context(model)
    if input_shapes is not None:
        sizes = {var.shape[0] for (_, var), shape in zip(flat_inputs, input_shapes)
                 if len(shape) > 0 and not isinstance(shape[0], (int, numpy.integer))}
        if len(sizes) == 1:
            context.dynamic_batch_size = sizes.pop()
    network_inputs = collections.OrderedDict()
    for name, (_, var) in zip(in_names, flat_inputs):
        context.set_name(var, name, pinned=True)
        network_inputs[name] = var

    uninitialized = [n for n, p in (model.namedparams() if isinstance(model, Link)
                                    else ()) if p.array is None]
    hook = RetainInputHook()
    with hook:
        if isinstance(call_args, list):
            outputs = model(*call_args)
        elif isinstance(call_args, dict):
            outputs = model(**call_args)
        else:
            outputs = model(call_args)
    flat_outputs = _flat_outputs(outputs)
    for name in uninitialized:
        if isinstance(model, Link) and dict(model.namedparams())[name].array is None:
            warnings.warn('The parameter \'{}\' is not initialized, skip setting to ONNX '
                          'graph'.format(name), UserWarning)
    pinned_out = [None] * len(flat_outputs)
    if output_names:
        pinned_out = _names_for('output_names', outputs if isinstance(outputs, dict)
                                else flat_outputs, output_names, 'Output')

    graph = Graph(context, converters, opset_version, network_inputs,
                  list(zip(flat_outputs, pinned_out)), hook.records)
    graph.to_onnx_graph()
    network_outputs = collections.OrderedDict(zip(graph.output_names, flat_outputs))
    if len(network_outputs) != len(flat_outputs):
        raise ValueError('export: the model returns the same Variable twice; ONNX outputs '
                         'must be distinct ({})'.format(graph.output_names))

    # initializers: parameters used, persistents, implicit inputs, converters' params
    tensors = collections.OrderedDict()
    for name in graph.used_param_names:
        tensors[name] = context.params[name].array
    for name, array in graph.used_persistents.items():
        tensors[name] = array
    for name, array in context.implicit_inputs.items():
        tensors[name] = array
    for array in context.parameters:
        tensors.setdefault(context.get_name(array), array)
    total = sum(int(a.nbytes) for a in tensors.values())
    if total > _PROTOBUF_LIMIT:
        raise ValueError(
            'export: the model\'s parameters and constants take {:.2f} GB; an ONNX file is a '
            'protobuf of at most 2 GB (external data files are not written)'.format(
                total / 2 ** 30))
    initializers = [numpy_helper.from_array(numpy.asarray(_to_host(a)), n)
                    for n, a in tensors.items()]
    nodes = _constants_before_9(_merge_constants(graph.graph), initializers, opset_version)

    input_infos = []
    for i, (name, var) in enumerate(network_inputs.items()):
        shape = var.shape if input_shapes is None else input_shapes[i]
        input_infos.append(helper.make_tensor_value_info(
            name, helper.np_dtype_to_tensor_dtype(var.dtype), shape))
    if not export_params:
        for t in initializers:
            input_infos.append(helper.make_tensor_value_info(t.name, t.data_type, t.dims))
        initializers = []
    output_infos = [
        helper.make_tensor_value_info(
            name, helper.np_dtype_to_tensor_dtype(var.dtype),
            var.shape if input_shapes is None else [None] * var.ndim)
        for name, var in network_outputs.items()]

    onnx_graph = helper.make_graph(nodes, graph_name, input_infos, output_infos,
                                   initializer=initializers)
    opset_imports = [helper.make_operatorsetid('', opset_version)]
    if external_opset_imports:
        experimental('external_opset_imports')
        for domain, version in external_opset_imports.items():
            opset_imports.append(helper.make_operatorsetid(domain, version))
    onnx_model = helper.make_model(onnx_graph, producer_name='Chainer',
                                   producer_version=minichainer.__version__,
                                   opset_imports=opset_imports)
    onnx_model.ir_version = _ir_version(opset_imports)
    if input_shapes is not None:
        _infer_shapes(onnx_model)
    data = onnx_model.SerializeToString()   # once: checked, then written
    _check(data, external_converters, external_opset_imports)
    if filename is not None:
        _write(onnx_model, filename, save_text, data)
    if return_named_inout:
        experimental('return_named_inout')
        return onnx_model, network_inputs, network_outputs
    return onnx_model


_PROTOBUF_LIMIT = 2 ** 31 - 2 ** 26   # 2 GB less room for the graph itself


def _merge_constants(nodes):
    # Constant nodes of equal value are one: the later ones are dropped and their uses
    # renamed to the first (converters add a constant per use, e.g. x * c twice).
    first = {}
    rename = {}
    kept = []
    for node in nodes:
        if node.op_type == 'Constant' and node.domain in ('', 'ai.onnx') and \
                len(node.attribute) == 1 and len(node.output) == 1:
            attr = node.attribute[0]
            value = onnx.AttributeProto()
            value.CopyFrom(attr)
            if value.HasField('t'):
                value.t.name = ''
            key = value.SerializeToString()
            if key in first:
                rename[node.output[0]] = first[key]
                continue
            first[key] = node.output[0]
        if rename:
            for i, name in enumerate(node.input):
                if name in rename:
                    node.input[i] = rename[name]
        kept.append(node)
    return kept




def _constants_before_9(nodes, initializers, opset_version):
    # Constant before opset 9 holds float tensors only: an integer/bool Constant becomes an
    # initializer of the same name there.
    if opset_version >= 9:
        return nodes
    float_types = (onnx.TensorProto.FLOAT, onnx.TensorProto.FLOAT16, onnx.TensorProto.DOUBLE)
    kept = []
    for node in nodes:
        if node.op_type == 'Constant' and node.domain in ('', 'ai.onnx') and \
                len(node.attribute) == 1 and node.attribute[0].name == 'value' and \
                node.attribute[0].t.data_type not in float_types:
            tensor = onnx.TensorProto()
            tensor.CopyFrom(node.attribute[0].t)
            tensor.name = node.output[0]
            initializers.append(tensor)
        else:
            kept.append(node)
    return kept


def _ir_version(opset_imports):
    try:
        needed = helper.find_min_ir_version_for(opset_imports, ignore_unknown=True)
    except Exception:
        needed = onnx.IR_VERSION
    return max(int(needed), 7)


def _check(data, external_converters, external_opset_imports):
    # check_model(full_check=True) (which includes strict shape inference) on the
    # serialized model; with external converters and no opset import for their domain,
    # a failure is a warning (onnx_chainer's behaviour)
    checker = onnx.checker
    try:
        checker.check_model(data, full_check=True)
    except (checker.ValidationError, onnx.shape_inference.InferenceError) as e:
        if not external_converters or external_opset_imports:
            raise
        warnings.warn(
            'ValidationError is occurred but ignored. ONNX-Chainer recommends to set '
            '`external_opset_imports` when using `external_converters` on exporting. '
            'Please take care about ONNX format check is insufficient. Error message:\n{}'
            .format(e), UserWarning)


_LARGE = 1024


def _infer_shapes(onnx_model):
    """Put ONNX's inferred shapes (symbolic dimensions included) on the outputs and
    value_info of `onnx_model`.  Inference runs on a copy whose large floating-point
    initializers are replaced by inputs of the same type (their values never decide a
    shape), so a big model is not serialized for it."""
    graph = onnx_model.graph
    skeleton = onnx.ModelProto()
    skeleton.ir_version = onnx_model.ir_version
    skeleton.opset_import.extend(onnx_model.opset_import)
    sg = skeleton.graph
    sg.name = graph.name
    sg.node.extend(graph.node)
    sg.input.extend(graph.input)
    sg.output.extend(graph.output)
    float_types = (onnx.TensorProto.FLOAT, onnx.TensorProto.DOUBLE, onnx.TensorProto.FLOAT16,
                   onnx.TensorProto.BFLOAT16)
    stand_ins = set()
    for tensor in graph.initializer:
        size = 1
        for d in tensor.dims:
            size *= d
        if size > _LARGE and tensor.data_type in float_types:
            sg.input.append(helper.make_tensor_value_info(tensor.name, tensor.data_type,
                                                          list(tensor.dims)))
            stand_ins.add(tensor.name)
        else:
            sg.initializer.append(tensor)
    try:
        inferred = shape_inference.infer_shapes(skeleton, check_type=True, strict_mode=True)
    except Exception:
        return   # the full check reports the error
    del graph.output[:]
    graph.output.extend(inferred.graph.output)
    del graph.value_info[:]
    graph.value_info.extend(v for v in inferred.graph.value_info if v.name not in stand_ins)


def _write(onnx_model, filename, save_text, data=None):
    if data is None:
        data = onnx_model.SerializeToString()
    if isinstance(filename, (str, bytes, os.PathLike)):
        from minichainer.utils import atomic_write
        path = os.fsdecode(os.fspath(filename))

        def write(fd, tmp_path):
            with open(fd, 'wb') as f:
                f.write(data)

        directory, name = os.path.split(os.path.abspath(path))
        atomic_write.write_atomically(directory, name, write, makedirs=False)
        if save_text:
            atomic_write.write_text(path + '.txt', str(onnx_model))
    elif hasattr(filename, 'write'):
        if isinstance(filename, io.TextIOBase):
            raise TypeError('export: filename is a text stream; open the file in binary '
                            'mode (\'wb\')')
        filename.write(data)
    else:
        raise TypeError('export: filename must be a path or a binary file object, got {}'
                        .format(type(filename).__name__))
