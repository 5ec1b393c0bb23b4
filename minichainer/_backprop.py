"""The backward engine: `Variable.backward`, `minichainer.backward` and `grad`.

Function nodes are processed from a heap ordered by rank (highest first), so a node runs
only after every function that consumes its outputs.  Gradients of a variable that feeds
several functions are summed; gradients of intermediate variables are dropped as soon as
their creator has used them unless `retain_grad` is set.

`_run` takes each function node popped from the heap through three steps: collect the
gradients of its outputs, call its backward (with hooks and `backward_accumulate` when it
has them), and add the results into the gradients of its inputs.
"""
import itertools
import traceback
import warnings
from heapq import heappop, heappush

import numpy

from minichainer import _operations
from minichainer.backends import cuda as _cuda
from minichainer.configuration import get_value, using_config
from minichainer.function_hook import get_function_hooks, registered_hooks
from minichainer.variable import Variable, check_grad_type, set_grad_loss_scale


def _initial_grad(var, loss_scale):
    data = var.array_slot
    if data.size == 0:
        # Nothing to differentiate (ChainerMN's delegate variables are empty): proceed
        # with an empty gradient, as Chainer does.
        return Variable(numpy.ones_like(data), requires_grad=False)
    if data.size != 1:
        raise ValueError(
            'backward: the variable has shape {} and no gradient; set its grad (e.g. '
            'y.grad = numpy.ones_like(y.array)) or reduce it to a scalar before calling '
            'backward'.format(data.shape))
    if data.ndim != 0:
        warnings.warn(
            'Treating a variable with only one element as a scalar in Variable.backward is '
            'deprecated. A scalar variable must be a 0-dimensional array. Apply '
            'chainer.functions.squeeze to obtain a scalar variable. If the size of this '
            'variable accidentally becomes one, set zero to grad.', DeprecationWarning)
    gy = numpy.ones_like(data)
    if loss_scale is not None:
        gy *= loss_scale
    return Variable(gy, requires_grad=False)


_cuda_state = _cuda.cupy_state


def _is_cupy_array(x):
    cupy_ndarray = _cuda_state.ndarray
    return cupy_ndarray is not None and isinstance(x, cupy_ndarray)


def _raise_bad_grad(func, index, what, actual, expected):
    raise ValueError(
        '{} of gradients returned from backward is incorrect: input-index={}, actual {} != '
        'expected {}\n  function={} ({}) has a bug in its backward'.format(
            what, index, actual, expected, func.impl_name, func.label))


def _bad_grad(func, index, x, g_data, is_debug):
    # As in Chainer: debug mode reports a wrong shape or dtype as a ValueError naming the
    # input index; otherwise a wrong dtype is a TypeError and a wrong shape a ValueError.
    if x.dtype is None:
        return
    if is_debug:
        if g_data.shape != x.shape:
            _raise_bad_grad(func, index, 'shape', g_data.shape, x.shape)
        _raise_bad_grad(func, index, 'dtype', g_data.dtype, x.dtype)
    check_grad_type(func, x, True, g_data)


def backward_from_variable(var, retain_grad, enable_double_backprop, loss_scale):
    node = var.node_slot
    if node is None or node.creator_node_slot is None:
        if node is not None:
            # a gradient made by an old-style Function cannot be differentiated again
            node.check_old_style_gradient()
        if var.grad_var_slot is None and var.array_slot.size == 1:
            var.grad_var_slot = _initial_grad(var, loss_scale)  # a leaf gets its own grad
        return
    gy = var.grad_var_slot
    if gy is None:
        if var.array_slot.size != 1 and not any(
                x.requires_grad_slot for x in node.creator_node_slot.inputs or ()):
            return  # nothing needs a gradient: Chainer's backward does nothing either
        gy = _initial_grad(var, loss_scale)
    # As Chainer, the starting variable's gradient is consumed by the backward pass:
    # it is kept only with retain_grad=True.
    var.grad_var_slot = gy if retain_grad else None
    with using_config('enable_backprop', enable_double_backprop):
        _run({node: gy}, retain_grad, loss_scale)


def backward(outputs, grad_outputs=None, **kwargs):
    """backward(outputs, grad_outputs=None, *, enable_double_backprop=False)

    Backpropagate from several variables at once (`chainer.backward`), as Chainer does.

    Args:
        outputs (tuple or list of Variable): the variables to start from.
        grad_outputs (tuple or list of Variable, or None): their initial gradients.  With
            None, each output's own `grad_var` is used (and consumed: set to None);
            unlike `Variable.backward` no default gradient is made, so an output without
            one (or an output given twice) is skipped with a `RuntimeWarning`.
        enable_double_backprop (bool): record the backward computation in the graph.

    Raises:
        ValueError: `retain_grad` or `loss_scale` is given (Chainer does not support
            them here), or the lengths of `outputs` and `grad_outputs` differ.
        TypeError: `outputs`/`grad_outputs` are not sequences of Variables.
    """
    enable_double_backprop = _check_backward_arguments(outputs, grad_outputs, kwargs)
    if grad_outputs is None:
        grad_outputs = _consume_output_grads(outputs)
    start = {}
    for var, gv in zip(outputs, grad_outputs):
        if gv is None:
            continue
        if not isinstance(gv, Variable):
            gv = Variable(gv)
        check_grad_type(None, var, False, gv.array_slot)
        node = var.node
        if node.creator_node_slot is None:
            current = var.grad_var_slot  # a leaf: its gradient is the given one (summed)
            var.grad_var_slot = gv if current is None else current + gv
            continue
        start[node] = start[node] + gv if node in start else gv
    if not start:
        return
    with using_config('enable_backprop', enable_double_backprop):
        _run(start, False, None)


def _check_backward_arguments(outputs, grad_outputs, kwargs):
    # `backward`'s argument checks; returns `enable_double_backprop`.
    enable_double_backprop = kwargs.pop('enable_double_backprop', False)
    if 'retain_grad' in kwargs:
        raise ValueError('backward: retain_grad is not supported (semantics for '
                         'retain_grad=True is under discussion in Chainer)')
    if 'loss_scale' in kwargs:
        raise ValueError('backward: chainer.backward does not support the loss_scale option')
    if kwargs:
        raise TypeError('backward() got unexpected keyword argument(s): {}'.format(
            ', '.join(sorted(kwargs))))
    if not isinstance(outputs, (tuple, list)):
        raise TypeError('backward: outputs must be a tuple or a list, got {}'.format(
            type(outputs).__name__))
    for i, var in enumerate(outputs):
        if not isinstance(var, Variable):
            raise TypeError('backward: outputs[{}] must be a Variable, got {}'.format(
                i, type(var).__name__))
    if grad_outputs is not None:
        if not isinstance(grad_outputs, (tuple, list)):
            raise TypeError('backward: grad_outputs must be None, a tuple or a list, got '
                            '{}'.format(type(grad_outputs).__name__))
        if len(grad_outputs) != len(outputs):
            raise ValueError('backward: grad_outputs must have as many elements as outputs '
                             '({}), got {}'.format(len(outputs), len(grad_outputs)))
    return enable_double_backprop


def _consume_output_grads(outputs):
    # Without grad_outputs, `backward` takes (and clears) each output's own gradient.
    grad_outputs = []
    for var in outputs:
        gv = var.grad_var_slot
        if gv is None:
            warnings.warn('outputs contains a Variable without grad, or duplicate '
                          'outputs. Note that chainer.backward does not set default '
                          'grad.', RuntimeWarning)
        var.grad_var_slot = None
        grad_outputs.append(gv)
    return grad_outputs


def grad(outputs, inputs, grad_outputs, grad_inputs, set_grad, retain_grad,
         enable_double_backprop, loss_scale):
    start = {}
    for i, out in enumerate(outputs):
        gy = None if grad_outputs is None else grad_outputs[i]
        if gy is None:
            # Chainer's grad starts from ones whatever the output's shape.
            gy = numpy.ones_like(out.array_slot)
            if loss_scale is not None:
                gy *= loss_scale
            gy = Variable(gy, requires_grad=False)
        elif not isinstance(gy, Variable):
            gy = Variable(gy, requires_grad=False)
        node = out.node
        node.check_old_style_gradient()
        start[node] = start[node] + gy if node in start else gy
    targets = {}
    for x in inputs:
        targets[x.node] = None
    initial = None
    if grad_inputs is not None:
        # As in Chainer, the initial input gradients join the propagation: an input that
        # lies behind another input passes the other's initial gradient on.
        initial = {}
        for x, g_in in zip(inputs, grad_inputs):
            if g_in is None:
                continue
            if not isinstance(g_in, Variable):
                g_in = Variable(g_in, requires_grad=False)
            node = x.node
            initial[node] = initial[node] + g_in if node in initial else g_in
    with using_config('enable_backprop', enable_double_backprop):
        collected = _run(start, retain_grad, loss_scale, targets=targets, initial=initial)
    result = [collected.get(x.node) for x in inputs]
    if set_grad:
        for x, gx in zip(inputs, result):
            x.grad_var_slot = gx
    return result


def _run(start, retain_grad, loss_scale, targets=None, initial=None):
    """Backpropagate from `start` ({node: grad Variable}); with `targets` (a dict of
    nodes) return their gradients instead of accumulating into leaves; `initial` ({node:
    grad Variable}) seeds gradients without scheduling their creators."""
    grads = {} if initial is None else dict(initial)  # node -> gradient Variable so far
    heap = []  # (-rank, order, function node): the highest rank first
    pushed = set()  # function nodes put on the heap
    order = itertools.count()
    # the seeding stays inline: as a helper it cost 1.3% of the per-op overhead
    handed_out = set()  # ids of arrays already given to a leaf or an output as its grad
    for node, gv in start.items():
        current = grads.get(node) if initial is not None else None
        grads[node] = gv if current is None else current + gv
        handed_out.add(id(gv.array_slot))
        func = node.creator_node_slot
        if func is not None and func not in pushed:
            pushed.add(func)
            heappush(heap, (-func.rank, next(order), func))
    if targets is not None:
        handed_out = None  # leaves are targets like any other node: nothing is handed out
    is_debug = get_value('debug')
    plain = targets is None and not retain_grad  # no output gradient needs to stay

    while heap:
        func = heappop(heap)[2]
        outputs = func.outputs
        if len(outputs) == 1 and plain:  # step 1 inline for the common case (see _output_grads)
            y = outputs[0]()
            gy = None if y is None else grads.pop(y, None)
            gys = None if gy is None else (gy,)
        else:
            gys = _output_grads(func, grads, targets, retain_grad)
        in_nodes = func.inputs
        if gys is None or in_nodes is None:
            continue
        if len(in_nodes) == 1:
            target_indexes = (0,) if in_nodes[0].requires_grad_slot else ()
        else:
            target_indexes = tuple([i for i, x in enumerate(in_nodes) if x.requires_grad_slot])
        if not target_indexes:
            continue
        try:
            if registered_hooks.value or func.backward_slow_path:
                gxs = _backward_with_hooks(func, target_indexes, gys, grads,
                                           handed_out is None)
            else:
                gxs = func.backward(target_indexes, gys)
                if len(gxs) != len(target_indexes):
                    gxs = normalize_grads(func, target_indexes, gxs)
        except Exception as e:
            if func.stack is not None:  # recorded by apply in debug mode
                _add_stack_to_error(func, e)
            raise
        gys = None  # the output gradients may be freed before the inputs' are summed
        _add_input_grads(func, target_indexes, gxs, grads, heap, pushed, order, handed_out,
                         loss_scale, is_debug)
    if targets is not None:
        return {node: grads.get(node) for node in targets}
    return None


def _output_grads(func, grads, targets, retain_grad):
    """Step 1: take the gradients of `func`'s outputs out of `grads` (a target's stays).

    Returns the tuple of them (None for an output without one), or None when there are none
    at all.  With `retain_grad` each output variable still alive keeps its gradient.
    """
    outputs = func.outputs
    if len(outputs) == 1:
        y = outputs[0]()
        if y is None:
            return None
        gy = grads.get(y) if targets is not None and y in targets else grads.pop(y, None)
        if gy is None:
            return None
        if retain_grad:
            y_var = y.variable_ref()
            if y_var is not None:
                y_var.grad_var_slot = gy
        return gy,
    # An output that was unchained (``h.unchain()``) passes no gradient back to this
    # function, as in Chainer.  (A single output that was unchained cannot lead here.)
    out_nodes = [ref() for ref in outputs]
    gys = tuple([None if y is None or y.creator_node_slot is None else
                 grads.get(y) if targets is not None and y in targets else grads.pop(y, None)
                 for y in out_nodes])
    if retain_grad:
        for y, gy in zip(out_nodes, gys):
            if y is not None and gy is not None:
                y_var = y.variable_ref()
                if y_var is not None:
                    y_var.grad_var_slot = gy
    for gy in gys:
        if gy is not None:
            return gys
    return None


def _add_stack_to_error(func, error):
    # As Chainer in debug mode: an error raised in a backward names where the function
    # was applied.
    where = '\n{}\nStacktrace of the function is below:\n{}'.format(
        '-' * 70, ''.join(traceback.format_list(func.stack[:-1])))
    if error.args and isinstance(error.args[0], str):
        error.args = (error.args[0] + where,) + error.args[1:]
    elif not error.args:
        error.args = (where,)


def normalize_grads(func, target_indexes, gxs):
    """The gradients `func.backward` returned, one per target index.

    A backward may return one gradient per input instead (Chainer allows both); those
    of the target inputs are picked out. Any other count raises `ValueError`.
    """
    n_inputs = len(func.inputs)
    if len(gxs) == n_inputs:
        return tuple([gxs[i] for i in target_indexes])
    if n_inputs == len(target_indexes):
        expected = str(n_inputs)
    else:
        expected = '{} or {}'.format(n_inputs, len(target_indexes))
    raise ValueError(
        'number of gradients returned from backward is incorrect: {} != expected {}\n'
        '  function={}.backward (one gradient per input or one per target index)'
        .format(len(gxs), expected, func.label))


def _backward_with_hooks(func, target_indexes, gys, grads, collect):
    """Step 2, general case: backward between the hooks' `backward_preprocess` and
    `backward_postprocess`, through `backward_accumulate` when the node defines it."""
    hooks = func.all_hooks(get_function_hooks())
    in_nodes = func.inputs
    in_data = tuple([x.data for x in in_nodes])
    out_data = tuple([None if g is None else g.array_slot for g in gys])
    for hook in hooks:
        hook.backward_preprocess(func, in_data, out_data)
    if func.custom_accumulate:
        # backward_accumulate receives the gradients accumulated so far for the inputs
        # (a leaf's current grad included) and returns the new totals.
        g_ins = []
        taken = set()
        for i in target_indexes:
            x = in_nodes[i]
            if x in taken:
                g_ins.append(None)
                continue
            taken.add(x)
            if x.creator_node_slot is None and not collect:
                var = x.variable_ref()
                g_in = None if var is None else var.grad_var_slot
                if var is not None:
                    var.grad_var_slot = None
            else:
                g_in = grads.pop(x, None)
            g_ins.append(g_in)
        gxs = func.backward_accumulate(target_indexes, gys, tuple(g_ins))
        if len(gxs) != len(target_indexes):
            gxs = normalize_grads(func, target_indexes, gxs)
    else:
        gxs = func.call_backward(target_indexes, gys)
    for hook in hooks:
        hook.backward_postprocess(func, in_data, out_data)
    return gxs


def _add_input_grads(func, target_indexes, gxs, grads, heap, pushed, order, handed_out,
                     loss_scale, is_debug):
    """Step 3: check each input gradient and add it into `grads` (scheduling the input's
    creator) or, for a leaf when `handed_out` is a set, into the leaf variable's grad."""
    in_nodes = func.inputs
    for i, gx in zip(target_indexes, gxs):
        if gx is None:
            continue
        x = in_nodes[i]
        if type(gx) is not Variable and not isinstance(gx, Variable):
            if is_debug or not (isinstance(gx, numpy.ndarray) or _is_cupy_array(gx)):
                _raise_bad_grad(func, i, 'type', type(gx), Variable)
            gx = Variable(gx, requires_grad=False)
        g_data = gx.array_slot
        g_dtype = g_data.dtype
        if g_data.shape != x.shape or (g_dtype is not x.dtype and g_dtype != x.dtype):
            _bad_grad(func, i, x, g_data, is_debug)
        if is_debug and g_dtype.kind == 'f' and numpy.isnan(g_data).any():
            raise RuntimeError('NaN is detected on backward computation of {}'.format(
                func.label))
        creator = x.creator_node_slot
        if creator is None and handed_out is not None:
            _add_to_leaf(x, gx, handed_out, loss_scale)
            continue
        current = grads.get(x)
        grads[x] = gx if current is None else current + gx
        if creator is not None and creator not in pushed:
            pushed.add(creator)
            heappush(heap, (-creator.rank, next(order), creator))


def _add_to_leaf(x, gx, handed_out, loss_scale):
    """Add gradient `gx` into the grad of leaf node `x`'s variable (if it is alive).

    A gradient array already handed out (the initial gradient, or one given to another
    leaf) is copied first, so that no two variables share a gradient array.
    """
    var = x.variable_ref()
    if var is None:
        return
    if loss_scale is not None:
        set_grad_loss_scale(var, loss_scale)
    current = var.grad_var_slot
    if current is not None:
        var.grad_var_slot = current + gx
        return
    g_data = gx.array_slot
    if id(g_data) in handed_out:
        old_node = gx.node_slot
        if old_node is not None and old_node.creator_node_slot is not None:
            # A gradient in a graph (double backprop): copy it inside the graph so that
            # it stays differentiable.
            gx = gx * 1
        else:
            gx = Variable(g_data.copy(), requires_grad=gx.requires_grad_slot)
        if old_node is not None and old_node.old_style_grad_generator:
            gx.node.old_style_grad_generator = old_node.old_style_grad_generator
    handed_out.add(id(gx.array_slot))
    var.grad_var_slot = gx


# Variable.backward calls the engine through the operations registry (variable.py imports
# nothing above it).
_operations.register(backward=backward_from_variable)
