"""`Context`: the names shared by the converters of one export."""
import collections

import numpy

from minichainer.onnx import onnx_helper
from minichainer.onnx._deps import require_onnx

onnx = require_onnx()
from onnx import numpy_helper  # noqa: E402
from minichainer import backend
from minichainer.link import Link
from minichainer.variable import Variable


def _tensor_for_constant(array, name):
    # A Constant's value in the typed fields rather than raw bytes (readable in the
    # text form; constants are small).
    tensor = numpy_helper.from_array(array, name=name)
    try:
        field = onnx.helper.tensor_dtype_to_field(tensor.data_type)
    except Exception:  # no typed field for this type: keep raw_data
        return tensor
    if array.dtype.kind == 'f' and array.dtype.itemsize == 2:  # float16 lives in int32_data
        return tensor
    values = array.ravel()
    if values.dtype == numpy.bool_:
        values = values.astype(numpy.int32)
    tensor.ClearField('raw_data')
    getattr(tensor, field)[:] = values.tolist()
    return tensor


class Context:
    """The names of one export, shared by all converters.

    Names are keyed by object identity: a Variable/Parameter and its array share a
    name, so a converter can name an array a function unwrapped.  Every object named
    is kept alive for the export, so an identity is never reused for another object.

    Attributes:
        name_list (dict): `id(object) -> (name, pinned)`.
        parameters (list): arrays added by converters with `add_param` (become
            initializers).
        constants (list): Constant nodes added with `add_const` (placed before the
            converter's nodes).
        implicit_inputs (dict): `name -> array` of arrays a function used that are
            neither network inputs, parameters nor computed in the graph (become
            initializers); a converter may pop one to export it under another name.
    """

    def __init__(self, model):
        self.name_list = {}
        self._keep = []
        self.parameters = []
        self.constants = []
        self.implicit_inputs = {}
        self.function_inputs = {}   # id(FunctionNode) -> its input arrays (set by Graph)
        # the exported batch size when input_shapes makes the first axis of the inputs
        # symbolic (dynamic batch); converters keep such an axis symbolic (set by export)
        self.dynamic_batch_size = None
        self.param_to_link = {}
        self.persistents = {}   # id(array) -> (onnx name, array): links' persistent arrays
        self._used_names = set()
        self.param_ids = set()   # id of every parameter of the model and of its array
        self.params = collections.OrderedDict()   # onnx name -> Parameter
        if not isinstance(model, Link):
            return
        namedlinks = dict(model.namedlinks())
        for name, param in model.namedparams():
            if id(param) in self.param_ids:   # a shared parameter: one name, one initializer
                continue
            owner = name[:name.rindex('/')]
            if owner in namedlinks:
                self.param_to_link[id(param)] = (onnx_helper.cleanse_param_name(owner),
                                                 namedlinks[owner])
            onnx_name = onnx_helper.cleanse_param_name(name)
            self.set_name(param, onnx_name)
            self.params[onnx_name] = param
            self.param_ids.add(id(param))
            if param.array is not None:
                self.param_ids.add(id(param.array))
        for path, link in namedlinks.items():
            for key in sorted(getattr(link, '_persistent', ())):
                value = getattr(link, key, None)
                if isinstance(value, backend.get_array_types()):
                    onnx_name = onnx_helper.cleanse_param_name(
                        (path if path != '/' else '') + '/' + key)
                    self.persistents.setdefault(id(value), (onnx_name, value))
                    self._keep.append(value)

    def get_name(self, variable):
        """The name of `variable` (any object), giving it a fresh ``v<N>`` if it has none."""
        entry = self.name_list.get(id(variable))
        if entry is not None:
            return entry[0]
        new_name = 'v{}'.format(len(self.name_list))
        while new_name in self._used_names:
            new_name += '_'
        self.set_name(variable, new_name)
        return new_name

    def set_name(self, variable, name, pinned=False):
        """Name `variable` (and its array, for a Variable); a `pinned` name (a network
        input/output name given by the user) is never replaced."""
        key = id(variable)
        entry = self.name_list.get(key)
        if entry is not None and entry[1]:
            raise ValueError('Context.set_name: {!r} is pinned, cannot rename it to {!r}'
                             .format(entry[0], name))
        self.name_list[key] = (name, pinned)
        self._used_names.add(name)
        self._keep.append(variable)
        if isinstance(variable, Variable) and variable.array is not None:
            self.name_list[id(variable.array)] = (name, pinned)
            self._keep.append(variable.array)

    def is_pinned(self, variable):
        """True when `variable`'s name was pinned with `set_name(..., pinned=True)`."""
        entry = self.name_list.get(id(variable))
        return entry is not None and entry[1]

    def add_param(self, array, name, use_original_name=False):
        """Export `array` as an initializer; return its name, which is
        ``<func>_param_<name>`` unless `use_original_name`."""
        if use_original_name:
            onnx_name = name
        else:
            if not name.startswith(('/', '_')):
                name = '/' + name
            onnx_name = '{}_{}'.format(onnx_helper.get_func_name(),
                                       onnx_helper.cleanse_param_name(name))
        self.set_name(array, onnx_name)
        self.parameters.append(array)
        return onnx_name

    def add_const(self, array, name):
        """Add a Constant node holding `array` (a NumPy array); return its output name,
        ``<func>_const_<name>``."""
        if '/' in name:
            raise ValueError('Context.add_const: name must not contain "/", got {!r}'
                             .format(name))
        array = numpy.asarray(array)
        onnx_name = '{}_const_{}'.format(onnx_helper.get_func_name(), name)
        base, n = onnx_name, 1
        while onnx_name in self._used_names:
            onnx_name = '{}_{}'.format(base, n)
            n += 1
        self.set_name(array, onnx_name)
        self.constants.append(onnx_helper.make_node(
            'Constant', [], [onnx_name], value=_tensor_for_constant(array, onnx_name)))
        return onnx_name

    def input_array(self, func, index):
        """The array `func`'s input `index` had in the exported forward pass (the
        exporter recorded it; a converter needing a value, e.g. train-mode statistics or
        labels, reads it here).  None when unknown."""
        record = self.function_inputs.get(id(func))
        if record is not None:
            return record[index]
        node = func.inputs[index]
        if node.data is not None:
            return node.data
        var = node.get_variable_or_none()
        return None if var is None else var.array

    def get_link(self, param):
        """`(onnx name of the owning link, link)` of a Parameter, or None."""
        return self.param_to_link.get(id(param), None)
