"""Chainer's backprop helpers (`chainer._backprop_utils`), for code that calls them.

minichainer's own backward engine (`_backprop`) does not use these; they implement
Chainer's documented contract for a single step of backpropagation: `backprop_step`
computes the gradients of one function node and appends them to per-input lists, which
`_reduce` sums.
"""
import numpy

from minichainer import _backprop
from minichainer._operations import operations as _ops  # add: registered by functions


def _reduce(grad_list):
    """Sum the gradients in `grad_list` in place (leaving one) and return it, or None."""
    if not grad_list:
        return None
    if len(grad_list) >= 2:
        grad_list[:] = [_ops.add(*grad_list)]
    return grad_list[0]


def _pure(grad):
    return [] if grad is None else [grad]


def _pop_or_none(grad_list):
    return grad_list.pop() if grad_list else None


def _grad_var_from_alive_node(node):
    # Take (and clear) the grad_var of the node's variable, if it is still alive.
    var = node.get_variable_or_none()
    if var is None:
        return None
    gv = var.grad_var
    var.grad_var = None
    return gv


class GradTable:
    """Dict from nodes to lists of gradients (lists of length <= 1 unless summed lazily).

    Args:
        accumulate_grad_inputs (bool): a leaf node seen for the first time starts from
            its variable's current `grad_var`.
    """

    def __init__(self, accumulate_grad_inputs=False):
        self.grads = {}
        self._load_if_new = accumulate_grad_inputs

    def __setitem__(self, node, grad):
        self.grads[node] = _pure(grad)

    def accumulate(self, node, grad):
        self.get_as_list(node).append(grad)

    def get_as_list(self, node):
        grads = self.grads
        if node not in grads:
            if self._load_if_new and node.creator_node is None:
                node.check_old_style_gradient()
                grads[node] = _pure(_grad_var_from_alive_node(node))
            else:
                grads[node] = []
        return grads[node]

    def pop(self, node):
        if node is None:
            return None
        if node in self.grads:
            return _reduce(self.grads.pop(node))
        if self._load_if_new:
            return _grad_var_from_alive_node(node)
        return None

    def assert_no_grads(self):
        for gx in self.grads.values():
            assert gx == []


def backprop_step(func, target_input_indexes, grad_outputs, grad_inputs, is_debug):
    """Run the backward of `func` and add the input gradients to `grad_inputs`.

    Args:
        func (FunctionNode): the node.
        target_input_indexes (tuple of int): sorted indexes of the inputs needing grads.
        grad_outputs (tuple): gradients of the outputs (None where there is none).
        grad_inputs (dict): input node -> list of its gradients so far; updated in place.
        is_debug (bool): also check the gradients' shapes and look for NaN.
    """
    inputs = func.inputs
    if func.custom_accumulate:
        given = tuple([_pop_or_none(grad_inputs[inputs[i]]) for i in target_input_indexes])
        gxs = func.backward_accumulate(target_input_indexes, grad_outputs, given)
        if len(gxs) != len(target_input_indexes):
            gxs = _backprop.normalize_grads(func, target_input_indexes, gxs)
    else:
        gxs = func.call_backward(target_input_indexes, grad_outputs)
    for i, gx in zip(target_input_indexes, gxs):
        if gx is None or gx.array is None:
            continue
        node = inputs[i]
        if is_debug and node.shape is not None and gx.shape != node.shape:
            raise ValueError('shape of gradients returned from backward is incorrect: '
                             'input-index={}, actual {} != expected {} ({})'.format(
                                 i, gx.shape, node.shape, func.label))
        grad_inputs[node].append(gx)
    if is_debug:
        for grads in grad_inputs.values():
            for gx in grads:
                data = gx.array
                if data.dtype.kind == 'f' and numpy.isnan(data).any():
                    raise RuntimeError('NaN is detected on backward computation of '
                                       '{}'.format(func.label))
    if not func.lazy_grad_sum:
        for grads in grad_inputs.values():
            _reduce(grads)
