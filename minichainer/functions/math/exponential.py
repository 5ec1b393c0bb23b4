"""Exponential and logarithms: ``exp``, ``log``, ``log2``, ``log10``."""
import math

from minichainer import backend
from minichainer import function_node
from minichainer import utils
from minichainer.functions import _fast
from minichainer.utils import type_check

_INV_LOG2 = 1.0 / math.log(2.0)
_INV_LOG10 = 1.0 / math.log(10.0)


def _check_float_x(in_types):
    type_check._argname(in_types, ('x',))
    type_check.expect(in_types[0].dtype.kind == 'f')


class Exp(function_node.FunctionNode):
    """Elementwise exponential."""

    @property
    def label(self):
        return 'exp'

    def check_type_forward(self, in_types):
        _check_float_x(in_types)

    def forward(self, inputs):
        self.retain_outputs((0,))
        x, = inputs
        xp = backend.get_array_module(x)
        return utils.force_array(xp.exp(x)),

    def backward(self, indexes, grad_outputs):
        y, = self.get_retained_outputs()
        gy, = grad_outputs
        if not _fast.needs_graph():
            return _fast.as_grad(y.array * gy.array),
        return y * gy,


def exp(x):
    """Elementwise exponential function."""
    return Exp().apply((x,))[0]


class Log(function_node.FunctionNode):
    """Elementwise natural logarithm."""

    @property
    def label(self):
        return 'log'

    def check_type_forward(self, in_types):
        _check_float_x(in_types)

    def forward(self, inputs):
        self.retain_inputs((0,))
        x, = inputs
        xp = backend.get_array_module(x)
        return utils.force_array(xp.log(x)),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        gy, = grad_outputs
        if not _fast.needs_graph():
            return _fast.as_grad(gy.array / x.array),
        return gy / x,


def log(x):
    """Elementwise natural logarithm function."""
    return Log().apply((x,))[0]


class Log2(function_node.FunctionNode):
    """Elementwise base-2 logarithm."""

    @property
    def label(self):
        return 'log2'

    def check_type_forward(self, in_types):
        _check_float_x(in_types)

    def forward(self, inputs):
        self.retain_inputs((0,))
        x, = inputs
        xp = backend.get_array_module(x)
        return utils.force_array(xp.log2(x)),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        gy, = grad_outputs
        if not _fast.needs_graph():
            gx = gy.array / x.array
            gx *= _INV_LOG2
            return _fast.as_grad(gx),
        return gy / x * _INV_LOG2,


def log2(x):
    """Elementwise logarithm to the base 2: ``y = log2(x)``."""
    return Log2().apply((x,))[0]


class Log10(function_node.FunctionNode):
    """Elementwise base-10 logarithm."""

    @property
    def label(self):
        return 'log10'

    def check_type_forward(self, in_types):
        _check_float_x(in_types)

    def forward(self, inputs):
        self.retain_inputs((0,))
        x, = inputs
        xp = backend.get_array_module(x)
        return utils.force_array(xp.log10(x)),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        gy, = grad_outputs
        if not _fast.needs_graph():
            gx = gy.array / x.array
            gx *= _INV_LOG10
            return _fast.as_grad(gx),
        return gy / x * _INV_LOG10,


def log10(x):
    """Elementwise logarithm to the base 10: ``y = log10(x)``."""
    return Log10().apply((x,))[0]
