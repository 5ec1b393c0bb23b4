"""Old-style functions (`chainer.Function`) and the backprop-mode context managers.

An old-style [`Function`][minichainer.function.Function] works on arrays in both directions:
`forward(inputs)` returns a tuple of arrays and `backward(inputs, grad_outputs)` a tuple or any
other sequence (a list) of arrays, one per input, as in Chainer.  Calling one wraps it
in a `FunctionAdapter`, a FunctionNode, so it joins the same graph as new-style
functions (but cannot be differentiated twice).
"""
import weakref

import numpy

from minichainer.configuration import using_config
from minichainer.function_node import FunctionNode
from minichainer.variable import Variable, check_grad_type


def no_backprop_mode():
    """Context manager in which functions build no graph (`enable_backprop=False`)."""
    return using_config('enable_backprop', False)


def force_backprop_mode():
    """Context manager in which functions build the graph even inside no_backprop_mode."""
    return using_config('enable_backprop', True)


class FunctionAdapter(FunctionNode):
    """FunctionNode that runs an old-style [`Function`][minichainer.function.Function]."""

    _function = None
    _weak_function = None

    def __init__(self, function):
        super().__init__()
        self._weak_function = weakref.ref(function)
        function._owned_node = self

    @property
    def function(self):
        """The old-style function this node runs."""
        function = self._function
        if function is None:
            function = self._weak_function()
        return function

    @property
    def label(self):
        return self.function.label

    @property
    def impl_name(self):
        return self.function.__class__.__name__

    def check_type_forward(self, in_types):
        self.function.check_type_forward(in_types)

    def _check_data_type_forward(self, in_data):
        function = self.function
        if (type(function).check_type_forward is Function.check_type_forward
                and 'check_type_forward' not in function.__dict__):
            return
        FunctionNode._check_data_type_forward(self, in_data)

    def forward(self, inputs):
        # Old-style functions keep all their inputs unless they say otherwise.
        self.retain_inputs(tuple(range(len(inputs))))
        return self.function.forward(inputs)

    def backward(self, target_input_indexes, grad_outputs):
        inputs = self.inputs
        in_data = [None] * len(inputs)
        for index in self._input_indexes_to_retain or ():
            in_data[index] = inputs[index].data  # the retained array (None for a None input)
        in_data = tuple(in_data)
        grad_out_data = tuple(None if g is None else g.array for g in grad_outputs)
        for g in grad_outputs:
            if g is not None and g.creator_node is not None:
                g.node.check_old_style_gradient()
        gxs = self.function.backward(in_data, grad_out_data)
        if type(gxs) is not tuple:
            # As in Chainer, any sequence (a list, typically) is accepted.
            try:
                gxs = tuple(gxs)
            except TypeError:
                raise TypeError('{}.backward must return a sequence (tuple or list) of '
                                'arrays, got {}'.format(self.label, type(gxs).__name__)) \
                    from None
        if len(gxs) != len(self.inputs):
            raise ValueError('{}.backward must return one gradient per input ({}), got '
                             '{}'.format(self.label, len(self.inputs), len(gxs)))
        ret = []
        for i in target_input_indexes:
            gx = gxs[i]
            if gx is None:
                ret.append(None)
                continue
            if numpy.isscalar(gx):
                gx = numpy.asarray(gx)
            check_grad_type(self, self.inputs[i], True, gx)
            g = Variable(gx)
            g.node.old_style_grad_generator = self.function.label
            ret.append(g)
        return tuple(ret)


class Function:
    """Old-style function: override `forward`/`backward` (or `*_cpu`) on arrays."""

    _node = None
    _owned_node = None

    def __call__(self, *inputs):
        node = self.node
        node._function = self  # the graph now owns this function through its node
        node._weak_function = None
        self._node = weakref.ref(node)
        self._owned_node = None
        ret = node.apply(inputs)
        if len(ret) == 1:
            return ret[0]
        return tuple(ret)

    @property
    def node(self):
        """The `FunctionAdapter` of this function (created on demand)."""
        ref = self._node
        node = None if ref is None else ref()
        if node is None:
            node = FunctionAdapter(self)
            self._node = weakref.ref(node)
        return node

    @property
    def inputs(self):
        return self.node.inputs

    @property
    def outputs(self):
        return self.node.outputs

    @property
    def rank(self):
        return self.node.rank

    @property
    def stack(self):
        return self.node.stack

    @property
    def label(self):
        return self.__class__.__name__

    @property
    def output_data(self):
        """The retained output arrays (None for those not retained)."""
        node = self.node
        if node.output_indexes_to_retain is None:
            raise RuntimeError('retain_outputs is not called in forward.')
        return node.output_data

    @property
    def local_function_hooks(self):
        return self.node.local_function_hooks

    def check_type_forward(self, in_types):
        pass

    def forward(self, inputs):
        """Return a tuple of output arrays (dispatches to `forward_cpu`)."""
        return self.forward_cpu(inputs)

    def forward_cpu(self, inputs):
        raise NotImplementedError('{} does not implement forward'.format(self.label))

    def forward_gpu(self, inputs):
        raise NotImplementedError('{}: no GPU backend'.format(self.label))

    def backward(self, inputs, grad_outputs):
        """Return a tuple of input gradients (dispatches to `backward_cpu`)."""
        return self.backward_cpu(inputs, grad_outputs)

    def backward_cpu(self, inputs, grad_outputs):
        return tuple(None for _ in inputs)

    def backward_gpu(self, inputs, grad_outputs):
        return tuple(None for _ in inputs)

    def unchain(self):
        self.node.unchain()

    def add_hook(self, hook, name=None):
        self.node.add_hook(hook, name)

    def delete_hook(self, name):
        self.node.delete_hook(name)

    def retain_inputs(self, indexes):
        """Keep only these inputs for backward (call inside forward)."""
        self.node.retain_inputs(indexes)

    def retain_outputs(self, indexes, retain_after_backward=False):
        """Keep these outputs for backward (call inside forward)."""
        self.node.retain_outputs(indexes)
