"""Function nodes of the computational graph (`chainer.FunctionNode`).

A subclass implements `forward(inputs)` (arrays in, a tuple of arrays out) and
`backward(target_input_indexes, grad_outputs)` (Variables in, Variables out, so that the
same code gives higher-order gradients).  `apply(inputs)` runs forward and, when
`config.enable_backprop` is on, links the node into the graph, as Chainer does, even
when no input requires a gradient (the outputs then do not either, and `y.creator` is
the node): it holds its input nodes strongly and its output nodes through weak
references.  With `enable_backprop` off nothing is linked.
"""
import collections
import traceback
import weakref

import numpy

from minichainer import _backprop
from minichainer import _operations
from minichainer import function_hook
from minichainer.backends import cuda as _cuda
from minichainer.configuration import global_config, thread_settings
from minichainer.function_hook import get_function_hooks, registered_hooks
from minichainer.utils import type_check
from minichainer.variable import Variable, new_variable, set_array_layout

_ndarray = numpy.ndarray
_weakref = weakref.ref
_cuda_state = _cuda.cupy_state  # .ndarray: cupy.ndarray while CuPy is in use, else None
_type_check_local = type_check.thread_state
_LightTypes = type_check.LightTypeInfoTuple


class FunctionNode:
    """Node of the computational graph representing a function application.

    Attributes:
        inputs (tuple of VariableNode): the input nodes (set when the graph is linked).
        outputs (tuple of weakref): weak references to the output nodes.
        rank (int): topological order: `max(input ranks) + 1`.
    """

    inputs = None
    outputs = None
    rank = 0
    stack = None
    lazy_grad_sum = False
    _input_indexes_to_retain = None
    _output_indexes_to_retain = None
    _retained_output_data = None
    _local_function_hooks = None
    _supports_static_optimizations = False
    is_elementwise = False  # Chainer's flag: outputs take the inputs' memory layout
    chainerx_device = None  # minichainer has no ChainerX backend
    _is_chainerx_fallback_mode = False
    _input_layouts = None
    _output_layouts = None
    _output_count = None
    # The backward engine takes its general path (hooks, backward_accumulate) only for
    # nodes flagged here, so the common case pays a single attribute lookup (read by
    # _backprop.py and _backprop_utils.py: the engine's interface to the node, with
    # call_backward and all_hooks).
    backward_slow_path = False
    custom_accumulate = False
    # Whether the class checks its input types: None until its first application, which
    # looks whether it overrides ``check_type_forward`` (True on an instance given its own).
    _has_type_check = False

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls._has_type_check = None
        if 'backward_accumulate' in cls.__dict__:
            cls.custom_accumulate = True
            cls.backward_slow_path = True

    @property
    def local_function_hooks(self):
        """Ordered dict of the hooks registered on this node only."""
        if self._local_function_hooks is None:
            self._local_function_hooks = collections.OrderedDict()
        return self._local_function_hooks

    @property
    def _n_local_function_hooks(self):
        hooks = self._local_function_hooks
        return 0 if hooks is None else len(hooks)

    @property
    def label(self):
        """Short text describing the function (its class name by default)."""
        return self.__class__.__name__

    @property
    def impl_name(self):
        """The implementing class's name (an old-style Function's for its adapter)."""
        return self.__class__.__name__

    @property
    def _impl_name(self):
        # Chainer's name, which function hooks (TimerHook) and user code read
        return self.impl_name

    @property
    def output_data(self):
        """Retained output arrays, `None` for those not retained."""
        if self._output_indexes_to_retain is None or self.outputs is None:
            return None
        data = [None] * len(self.outputs)
        for index, array in zip(self._output_indexes_to_retain, self._retained_output_data):
            data[index] = array
        return tuple(data)

    @property
    def output_indexes_to_retain(self):
        """The indexes `retain_outputs` was given in this `forward` (a tuple), or None."""
        return self._output_indexes_to_retain

    @property
    def input_layouts(self):
        """Memory layouts of the inputs of the current `apply` (None: standard)."""
        layouts = self._input_layouts
        if layouts is None:
            layouts = (None,) * (len(self.inputs) if self.inputs is not None else 0)
        return layouts

    @property
    def output_layouts(self):
        """Memory layouts of the outputs (set in `forward` by layout-aware functions)."""
        return self._output_layouts

    @output_layouts.setter
    def output_layouts(self, layouts):
        if not isinstance(layouts, tuple):
            raise TypeError('{}: output_layouts must be a tuple, got {}'.format(
                self.label, type(layouts).__name__))
        self._output_layouts = layouts

    def check_layout_forward(self, inputs):
        """Check the memory layouts of the input Variables (called by `apply` once some
        Variable has a non-standard layout).

        By default, as in Chainer, an elementwise function needs all inputs in one layout
        and any other function needs standard layouts; layout-aware functions override it.

        Raises:
            RuntimeError: the layouts are not supported.
        """
        layouts = [x.layout for x in inputs]
        if self.is_elementwise:
            if any(layout != layouts[0] for layout in layouts):
                raise RuntimeError(
                    'Inputs with mixed memory layouts were given to an elementwise '
                    'function.\nFunction: {}\nInput layouts: {}'.format(
                        self.label, ', '.join(str(layout) for layout in layouts)))
        elif any(layout is not None for layout in layouts):
            raise RuntimeError(
                'Inputs with non-standard layouts were given to a function without '
                'explicit `check_layout_forward` implementation.\nFunction: {}\n'
                'Input layouts: {}\n(convert them with Variable.as_layout(None))'.format(
                    self.label, ', '.join(str(layout) for layout in layouts)))

    def _get_error_message(self, message):
        lines = [message, '  function={} ({})'.format(self.impl_name, self.label)]
        if self.inputs:
            for i, node in enumerate(self.inputs):
                lines.append('    input {}: shape={} dtype={}'.format(
                    i, node.shape, node.dtype))
        return '\n'.join(lines)

    def _apply_with_layouts(self, inputs):
        # ``apply`` once memory layouts are in use (see enable_memory_layouts): checks the input
        # layouts and gives each output its layout.
        input_vars = [x if isinstance(x, Variable) else Variable(x, requires_grad=False)
                      for x in inputs]
        self._input_layouts = tuple([x.layout for x in input_vars])
        self._output_layouts = None
        self.check_layout_forward(input_vars)
        outputs = _plain_apply(self, inputs)
        layouts = self._output_layouts
        if self.is_elementwise:
            layouts = (self._input_layouts[0] if self._input_layouts else None,) * \
                len(outputs)
            self._output_layouts = layouts
        elif layouts is None:
            layouts = self._output_layouts = (None,) * len(outputs)
        for y, layout in zip(outputs, layouts):
            if layout is not None:
                set_array_layout(y, layout)
        return outputs

    # -- forward -------------------------------------------------------------------------
    def apply(self, inputs):
        """Compute the outputs for `inputs` (Variables or arrays) and link the graph.

        Returns:
            tuple of Variable: the outputs.
        """
        requires_grad = False
        if len(inputs) == 1:
            x = inputs[0]
            if isinstance(x, Variable):
                data = x.array_slot
                if data is None:
                    self._raise_uninitialized()
                requires_grad = x.requires_grad_slot
            elif isinstance(x, _ndarray):
                data = x
                x = None
            else:
                data = self._raw_input(x)
                x = None
            input_vars = (x,)
            in_data = (data,)
        else:
            input_vars = []
            in_data = []
            for x in inputs:
                if isinstance(x, Variable):
                    data = x.array_slot
                    if data is None:
                        self._raise_uninitialized()
                    if x.requires_grad_slot:
                        requires_grad = True
                elif isinstance(x, _ndarray):
                    data = x
                    x = None
                else:
                    data = self._raw_input(x)
                    x = None
                input_vars.append(x)
                in_data.append(data)
            in_data = tuple(in_data)
            if _cuda_state.ndarray is not None:  # CuPy in use: no mixing of devices
                self._check_input_devices(inputs, in_data)

        # configuration.get_value's rule inlined for the three settings apply reads (three
        # calls would cost ~1% of an op): a setting of this thread wins over the global
        # one.  tests/test_architecture.py proves the two agree.
        local = thread_settings()
        g = global_config
        type_check_on = local['type_check'] if 'type_check' in local else g.type_check
        enable_backprop = (local['enable_backprop'] if 'enable_backprop' in local
                           else g.enable_backprop)
        debug = local['debug'] if 'debug' in local else g.debug
        if type_check_on and self._has_type_check is not False:
            self._check_data_type_forward(in_data)

        if registered_hooks.value or self._local_function_hooks:
            hooks = self.all_hooks(get_function_hooks())
            for hook in hooks:
                hook.forward_preprocess(self, in_data)
            outputs = self.forward(in_data)
            for hook in hooks:
                hook.forward_postprocess(self, in_data)
        else:
            outputs = self.forward(in_data)

        if type(outputs) is not tuple:
            self._raise_bad_outputs(outputs)
        for y in outputs:
            if type(y) is not _ndarray and not isinstance(y, _ndarray):
                if not _all_cupy_arrays(outputs):  # None outputs, or a mix, or bad types
                    return self._finish_with_none_outputs(
                        input_vars, in_data, outputs, requires_grad, enable_backprop, debug)
                break
        if debug:
            self._check_nan_in_forward(outputs)
            self.stack = traceback.extract_stack()  # shown with an error in its backward

        if enable_backprop:
            # as in Chainer, linked even when no input needs a gradient (the outputs
            # then do not either): `y.creator` is this node
            return self._link(input_vars, in_data, outputs, requires_grad)
        self._input_indexes_to_retain = None
        self._output_indexes_to_retain = None
        if len(outputs) == 1:
            return new_variable(outputs[0], requires_grad),
        return tuple([new_variable(y, requires_grad) for y in outputs])

    def _finish_with_none_outputs(self, input_vars, in_data, outputs, requires_grad,
                                  enable_backprop, debug):
        # The end of ``apply`` when forward returned some None outputs (Chainer makes them
        # Variables holding None, which get no gradient); anything else is an error.
        cupy_ndarray = _cuda_state.ndarray
        for y in outputs:
            if y is not None and not isinstance(y, _ndarray) and not (
                    cupy_ndarray is not None and isinstance(y, cupy_ndarray)):
                self._raise_bad_outputs(outputs)
        if cupy_ndarray is not None:
            kinds = {isinstance(y, cupy_ndarray) for y in outputs if y is not None}
            if len(kinds) > 1:
                raise TypeError(
                    'incompatible array types are mixed in the forward output ({}).\n'
                    'Actual: {}'.format(self.label, ', '.join(str(type(y)) for y in outputs)))
        if debug:
            self._check_nan_in_forward([y for y in outputs if y is not None])
            self.stack = traceback.extract_stack()
        if enable_backprop:
            return self._link(input_vars, in_data, outputs, requires_grad,
                              _new_output_variable)
        self._input_indexes_to_retain = None
        self._output_indexes_to_retain = None
        return tuple([_new_output_variable(y, requires_grad) for y in outputs])

    def _raise_uninitialized(self):
        raise ValueError('{}: input is an uninitialized variable (its array is None)'.format(
            self.label))

    def _raw_input(self, x):
        # An input that is neither a Variable nor a NumPy array: a CuPy array, or None (as
        # in Chainer, wrapped in a Variable holding None, which needs no gradient).
        if x is not None:
            cupy_ndarray = _cuda_state.ndarray or _cuda.maybe_resolve()
            if cupy_ndarray is not None and isinstance(x, cupy_ndarray):
                return x
            self._raise_bad_input(x)
        return None

    def _raise_bad_input(self, x):
        raise TypeError('{}: inputs must be Variables, numpy.ndarray{} or None, got {} ({!r})'
                        .format(self.label, ', cupy.ndarray' if _cuda_state.ndarray else '',
                                type(x).__name__, x))

    def _check_input_devices(self, inputs, in_data):
        # With CuPy in use: every input array of one kind (NumPy or CuPy) and, for CuPy,
        # on one GPU. The error names both devices and the inputs (Variables by name,
        # e.g. a link's parameter 'W').
        cupy_ndarray = _cuda_state.ndarray
        several_gpus = _cuda_state.device_count > 1  # else no GPU id to compare
        first = None
        for i, data in enumerate(in_data):
            if data is None:
                continue
            if isinstance(data, cupy_ndarray):
                where = ('cupy', data.device.id) if several_gpus else 'cupy'
            else:
                where = 'numpy'
            if first is None:
                first = (i, where)
            elif where != first[1]:
                j = first[0]
                _raise_mixed_devices(self.label, (j, inputs[j], in_data[j]),
                                     (i, inputs[i], data))

    def _raise_bad_outputs(self, outputs):
        if type(outputs) is not tuple:
            raise TypeError('forward output must be a tuple ({}): {}.forward returned {}'
                            .format(self.label, self.label, type(outputs).__name__))
        for y in outputs:
            if not isinstance(y, _ndarray) and not (
                    _cuda_state.ndarray is not None and isinstance(y, _cuda_state.ndarray)):
                raise TypeError(
                    'forward output must be a tuple of ndarrays: {}.forward returned an '
                    'element of type {} (wrap 0-dim results with '
                    'minichainer.utils.force_array)'.format(self.label, type(y).__name__))

    def _link(self, input_vars, in_data, outputs, requires_grad, make_output=new_variable):
        nodes = []
        rank = 0
        for x in input_vars:
            if x is None:
                x = Variable(in_data[len(nodes)], requires_grad=False)
            node = x.node_slot
            if node is None:
                node = x.node
            elif node.rank_slot > rank:
                rank = node.rank_slot
            nodes.append(node)
        self.rank = rank
        self.inputs = tuple(nodes)
        ret = []
        out_refs = []
        for y in outputs:
            v = make_output(y, requires_grad, self)
            ret.append(v)
            out_refs.append(_weakref(v.node_slot))
        self.outputs = tuple(out_refs)
        if self._input_indexes_to_retain is not None:
            for index in self._input_indexes_to_retain:
                nodes[index].data = in_data[index]
        if self._output_indexes_to_retain is not None:
            self._retained_output_data = tuple(
                [outputs[index] for index in self._output_indexes_to_retain])
            for index in self._output_indexes_to_retain:
                ret[index].node_slot.data = outputs[index]  # as Chainer's retain_data()
        return tuple(ret)

    def all_hooks(self, thread_hooks):
        # The hooks to run around this node: the thread's, then the node's own.
        hooks = list(thread_hooks.values()) if thread_hooks else []
        if self._local_function_hooks:
            hooks.extend(self._local_function_hooks.values())
        return hooks

    def _check_nan_in_forward(self, outputs):
        for y in outputs:
            if y.dtype.kind == 'f' and _isnan_any(y):
                raise RuntimeError('NaN is detected on forward computation of {}'.format(
                    self.label))

    def _check_data_type_forward(self, in_data):
        # Run check_type_forward on the input arrays (apply calls it unless the class is
        # known to have no checks).
        if self._has_type_check is None:
            cls = type(self)
            cls._has_type_check = cls.check_type_forward is not FunctionNode.check_type_forward
            if not cls._has_type_check:
                return
        # Light mode first: the types are the arrays themselves and conditions are plain
        # booleans.  Only a failing check is rerun on expressions to build the message.
        local = _type_check_local
        local.light_mode = True
        try:
            self.check_type_forward(_LightTypes(in_data))
            return
        except type_check.InvalidType:
            pass
        finally:
            local.light_mode = False
        in_types = type_check.get_types(in_data, 'in_types', False)
        with type_check.get_function_check_context(self):
            self.check_type_forward(in_types)

    # check_type_forward: see _CheckTypeForward below (replaceable per instance)

    def forward(self, inputs):
        """Compute outputs from input arrays; returns a tuple of arrays."""
        if not inputs:
            raise ValueError('{}.forward: no inputs'.format(self.label))
        return self.forward_cpu(inputs)

    def forward_cpu(self, inputs):
        raise NotImplementedError('{} does not implement forward'.format(self.label))

    def forward_gpu(self, inputs):
        raise NotImplementedError('{}: no GPU backend'.format(self.label))

    def forward_chainerx(self, inputs):
        return NotImplemented

    def retain_inputs(self, indexes):
        """Keep the input arrays with these indexes for backward (call inside forward)."""
        self._input_indexes_to_retain = indexes

    def retain_outputs(self, indexes):
        """Keep the output arrays with these indexes for backward (call inside forward)."""
        self._output_indexes_to_retain = indexes

    # -- backward ------------------------------------------------------------------------
    def backward(self, target_input_indexes, grad_outputs):
        """Return gradients (Variables or None) for the inputs in `target_input_indexes`."""
        return (None,) * len(target_input_indexes)

    def backward_accumulate(self, target_input_indexes, grad_outputs, grad_inputs):
        """Compute the gradients and add them to `grad_inputs` (Chainer's hook point)."""
        gxs = self.call_backward(target_input_indexes, grad_outputs)
        ret = []
        for gx, g_in in zip(gxs, grad_inputs):
            if g_in is None:
                ret.append(gx)
            elif gx is None:
                ret.append(g_in)
            else:
                ret.append(gx + g_in)
        return tuple(ret)

    def call_backward(self, target_input_indexes, grad_outputs):
        gxs = self.backward(target_input_indexes, grad_outputs)
        if len(gxs) == len(target_input_indexes):
            return tuple(gxs)
        return _backprop.normalize_grads(self, target_input_indexes, gxs)

    def get_retained_inputs(self):
        """The retained inputs as Variables (connected to the graph)."""
        inputs = self.inputs
        if self._input_indexes_to_retain is None or inputs is None:
            return ()
        # A retained input that holds no array (a None input) comes back as None, as Chainer.
        return tuple([None if inputs[i].data is None else inputs[i].get_variable()
                      for i in self._input_indexes_to_retain])

    def get_retained_outputs(self):
        """The retained outputs as Variables (re-created if the output was released)."""
        indexes = self._output_indexes_to_retain
        if indexes is None or self.outputs is None:
            return ()
        ret = []
        outputs = list(self.outputs)
        modified = False
        for index, data in zip(indexes, self._retained_output_data):
            node = outputs[index]()
            if node is None:
                var = _new_output_variable(data, True, self)
                node = var.node_slot
                outputs[index] = _weakref(node)
                modified = True
                # keep the recreated variable alive as long as this node needs it
                node.data = data
            else:
                if node.data is None:
                    node.data = data
                var = node.get_variable()
            ret.append(None if data is None else var)  # a None output, as Chainer
        if modified:
            self.outputs = tuple(outputs)
        return tuple(ret)

    def unchain(self):
        """Purge references to inputs and outputs, cutting the graph here."""
        if self.outputs is not None:
            for ref in self.outputs:
                node = ref()
                if node is not None:
                    node.unchain()
        self.inputs = None

    def add_hook(self, hook, name=None):
        """Register a function hook on this node only."""
        function_hook.add_local_hook(self, self.local_function_hooks, hook, name,
                                     function_hook.FunctionHook)
        self.backward_slow_path = True
        hook.added(self)

    def delete_hook(self, name):
        """Unregister the hook of this name from this node."""
        function_hook.delete_local_hook(self, self.local_function_hooks, name).deleted(self)


_plain_apply = FunctionNode.apply


def _new_output_variable(data, requires_grad=False, creator=None):
    # `new_variable` that also takes None (an output a forward left undefined).
    if data is not None:
        return new_variable(data, requires_grad, creator)
    var = new_variable(None, requires_grad)
    if creator is not None:
        var.node.set_creator_node(creator)
    return var


def enable_memory_layouts():
    """The process-wide switch to memory layouts (`minichainer.memory_layouts`).

    From this call on, `FunctionNode.apply` of every node is the layout-aware variant
    (it checks the inputs' layouts and gives each output its layout).  It is called,
    once, where a layout first appears: a `Variable` made with a non-standard `layout`,
    or an `AsLayout` node; programs that use none keep the plain `apply` and pay
    nothing.  Idempotent; `disable_memory_layouts` switches back.
    """
    if FunctionNode.apply is _plain_apply:
        FunctionNode.apply = FunctionNode._apply_with_layouts


def disable_memory_layouts():
    """Switch `FunctionNode.apply` back to the plain variant (for tests that used
    layouts; Variables that carry a layout keep it but no longer propagate it)."""
    FunctionNode.apply = _plain_apply


def memory_layouts_enabled():
    """True once `enable_memory_layouts` switched this process to layout-aware apply."""
    return FunctionNode.apply is not _plain_apply


def _default_check_type_forward(self, in_types):
    """Check the types of the inputs (override with `type_check.expect` calls)."""
    pass


class _CheckTypeForward:
    """`FunctionNode.check_type_forward`: a no-op method that can also be replaced on an
    instance (`node.check_type_forward = f`), as Chainer allows.  Assigning one makes that
    instance run its checks although its class has none; other nodes pay nothing for it."""

    def __get__(self, obj, cls=None):
        if obj is None:
            return _default_check_type_forward
        override = obj.__dict__.get('_instance_check_type_forward')
        if override is not None:
            return override
        return _default_check_type_forward.__get__(obj, cls)

    def __set__(self, obj, value):
        d = obj.__dict__
        d['_instance_check_type_forward'] = value
        d['_has_type_check'] = True

    def __delete__(self, obj):
        d = obj.__dict__
        d.pop('_instance_check_type_forward', None)
        d.pop('_has_type_check', None)


FunctionNode.check_type_forward = _CheckTypeForward()


def grad(outputs, inputs, grad_outputs=None, grad_inputs=None, set_grad=False,
         retain_grad=False, enable_double_backprop=False, loss_scale=None):
    """Compute the gradients of `outputs` with respect to `inputs`.

    Unlike [`Variable.backward`][minichainer.variable.Variable.backward], the `grad` attributes are
    left untouched unless `set_grad` is True.

    Returns:
        list of Variable: gradient of each input (None where no path leads to it).
    """
    if not isinstance(outputs, (tuple, list)):
        raise TypeError('grad: outputs must be a tuple or a list of Variables, got {}'.format(
            type(outputs).__name__))
    if not isinstance(inputs, (tuple, list)):
        raise TypeError('grad: inputs must be a tuple or a list of Variables, got {}'.format(
            type(inputs).__name__))
    if grad_outputs is not None and not isinstance(grad_outputs, (tuple, list)):
        raise TypeError('grad: grad_outputs must be a tuple, a list or None, got {}'.format(
            type(grad_outputs).__name__))
    if grad_inputs is not None and not isinstance(grad_inputs, (tuple, list)):
        raise TypeError('grad: grad_inputs must be a tuple, a list or None, got {}'.format(
            type(grad_inputs).__name__))
    for name, seq in (('outputs', outputs), ('inputs', inputs)):
        for v in seq:
            if not isinstance(v, Variable):
                if name == 'inputs':
                    # Chainer refuses a gradient made by an old-style Function first
                    for out in outputs:
                        out.node.check_old_style_gradient()
                raise TypeError('grad: every element of {} must be a Variable, got {}'.format(
                    name, type(v).__name__))
    if grad_outputs is not None and len(grad_outputs) != len(outputs):
        raise ValueError('grad: grad_outputs must have as many elements as outputs '
                         '({}), got {}'.format(len(outputs), len(grad_outputs)))
    if grad_inputs is not None and len(grad_inputs) != len(inputs):
        raise ValueError('grad: grad_inputs must have as many elements as inputs '
                         '({}), got {}'.format(len(inputs), len(grad_inputs)))
    return _backprop.grad(outputs, inputs, grad_outputs, grad_inputs, set_grad,
                          retain_grad, enable_double_backprop, loss_scale)


def _all_cupy_arrays(outputs):
    # every output a CuPy array (CuPy in use): the plain path of apply goes on
    cupy_ndarray = _cuda_state.ndarray
    if cupy_ndarray is None:
        return False
    for y in outputs:
        if type(y) is not cupy_ndarray and not isinstance(y, cupy_ndarray):
            return False
    return True


def _isnan_any(y):
    # one host copy of a bool for a CuPy array
    if isinstance(y, _ndarray):
        return bool(numpy.isnan(y).any())
    return bool(_cuda_state.cupy.isnan(y).any())


def _device_label(data):
    if isinstance(data, _ndarray):
        return '@numpy (numpy.ndarray)'
    cupy_ndarray = _cuda_state.ndarray
    if cupy_ndarray is not None and isinstance(data, cupy_ndarray):
        return '@cupy:{} (cupy.ndarray)'.format(data.device.id)
    return type(data).__name__


def _raise_mixed_devices(label, first, second):
    """TypeError naming both inputs (a Variable by its name) and their devices."""
    def describe(index, given, data):
        name = getattr(given, 'name', None) if isinstance(given, Variable) else None
        what = 'input {}{}'.format(index, ' ({!r})'.format(name) if name else '')
        return '{} on {}'.format(what, _device_label(data))
    (i, xi, di), (j, xj, dj) = first, second
    kind = ('incompatible array types are mixed'
            if type(di) is not type(dj) else 'arrays on different devices are mixed')
    raise TypeError(
        '{} in the forward input ({}).\nActual: {}; {}. Send the inputs (and the link, '
        'with link.to_device) to one device.'.format(
            kind, label, describe(i, xi, di), describe(j, xj, dj)))


# A Variable given a memory layout switches apply through the operations registry.
_operations.register(enable_memory_layouts=enable_memory_layouts)
