"""Broadcasting: `broadcast_to` a shape and `broadcast` several variables together."""
from minichainer import backend
from minichainer import variable
from minichainer.function_node import FunctionNode
from minichainer.functions.math import sum as sum_mod
from minichainer.utils import type_check


class BroadcastTo(FunctionNode):
    """Broadcast an array to a given shape."""

    def __init__(self, shape):
        self._shape = tuple(shape)

    @property
    def target_shape(self):
        """The shape the input is broadcast to (a tuple)."""
        return self._shape

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 1)
        type_check.argname(in_types, ('x',))
        ndim = type_check.make_variable(len(self._shape), 'len(shape)')
        type_check.expect(in_types[0].ndim <= ndim)
        shape = type_check.eval(in_types[0].shape)
        for i in range(-1, -len(shape) - 1, -1):
            if shape[i] == self._shape[i] or shape[i] == 1:
                continue
            expect = 'in_type[0].shape[%d] == %d' % (i, self._shape[i])
            if self._shape[i] != 1:
                expect += ' or in_type[0].shape[%d] == 1' % i
            actual = 'in_type[0].shape: %s' % str(shape)
            raise type_check.InvalidType(expect, actual)

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        return xp.broadcast_to(x, self._shape),

    def backward(self, indexes, grad_outputs):
        gx, = grad_outputs
        return sum_mod.sum_to(gx, self.inputs[0].shape),


def broadcast_to(x, shape):
    """Broadcast `x` to `shape`; the result is a read-only view."""
    shape = tuple(shape)
    if x.shape == shape:
        return variable.as_variable(x)
    y, = BroadcastTo(shape).apply((x,))
    return y


class Broadcast(FunctionNode):
    """Broadcast several arrays against each other."""

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() > 0)
        type_check.expect_broadcast_shapes(*[t.shape for t in in_types])

    def forward(self, inputs):
        xp = backend.get_array_module(*inputs)
        return tuple(xp.broadcast_arrays(*inputs))

    def backward(self, indexes, grad_outputs):
        return tuple(None if grad_outputs[i] is None else
                     sum_mod.sum_to(grad_outputs[i], self.inputs[i].shape) for i in indexes)


def broadcast(*args):
    """Broadcast the given variables together; returns a tuple (one Variable for one arg)."""
    if len(args) == 0:
        # Chainer reports this through its type check (in_types.size() > 0).
        raise type_check.InvalidType('in_types.size() > 0', 'in_types.size() == 0',
                                     'broadcast: at least one argument is required\n'
                                     'Expect: in_types.size() > 0\nActual: 0 inputs')
    ret = Broadcast().apply(args)
    if len(ret) == 1:
        return ret[0]
    return ret
