"""Make a Python function appear in the graph as one FunctionNode, to be exported by
one converter: `fake_as_funcnode` and the decorator `as_funcnode` (onnx_chainer's)."""
import inspect

from minichainer.function_node import FunctionNode
from minichainer import backend
from minichainer.function_node import grad
from minichainer.utils import experimental
from minichainer.variable import Variable


def _is_var(x):
    return isinstance(x, Variable)


def _flatten(xs):
    if not isinstance(xs, (list, tuple)):
        return [xs]
    out = []
    for x in xs:
        out.extend(_flatten(x))
    return out


class WrappedFunctionNode(FunctionNode):
    """A FunctionNode running `func(*args, **kwargs)`; exported as `name`.

    Args:
        name (str): the node's name for the exporter (`custom_function_node_name`).
        func: the wrapped function.
        args, kwargs: its arguments.
        arg_vars (list of Variable): the Variables among them (the node's inputs).
        attributes (dict): set as attributes of the node (for its converter).
    """

    def __init__(self, name, func, args, kwargs, arg_vars, attributes=None):
        super().__init__()
        self.custom_function_node_name = name
        self.func = func
        self.args = args
        self.kwargs = kwargs
        self.arg_vars = arg_vars
        self.internal_results = None
        self.skeleton = None
        for key, value in (attributes or {}).items():
            setattr(self, key, value)

    def forward(self, xs):
        results = self.func(*self.args, **self.kwargs)
        self.skeleton, flat = self._flatten_return_value(results)
        if flat and all(_is_var(r) for r in flat):
            self.internal_results = flat
        arrays = tuple(r.array if _is_var(r) else r for r in flat)
        if not arrays or not all(isinstance(a, backend.get_array_types()) for a in arrays):
            raise ValueError(
                'returned values from the function wrapped by \'as_funcnode\' must consist '
                'only array, function name: {}'.format(self.custom_function_node_name))
        return arrays

    def backward(self, target_input_indexes, grad_outputs):
        if self.internal_results is None:
            raise ValueError('the target function does not support backward, propagation '
                             'is failed (function name: {})'.format(
                                 self.custom_function_node_name))
        grads = grad(self.internal_results, self.arg_vars,
                                 grad_outputs=grad_outputs)
        return tuple(g if i in target_input_indexes else None for i, g in enumerate(grads))

    @staticmethod
    def _flatten_return_value(x):
        outputs = []

        def skeletonize(r):
            if isinstance(r, tuple):
                return tuple(skeletonize(e) for e in r)
            if isinstance(r, list):
                return [skeletonize(e) for e in r]
            if isinstance(r, dict):
                return {k: skeletonize(v) for k, v in r.items()}
            outputs.append(r)
            return len(outputs) - 1

        return skeletonize(x), outputs

    def reconstruct_return_value(self, outputs):
        """`outputs` (one per flattened result) in the shape `func` returned them."""
        def build(s):
            if isinstance(s, tuple):
                return tuple(build(e) for e in s)
            if isinstance(s, list):
                return [build(e) for e in s]
            if isinstance(s, dict):
                return {k: build(v) for k, v in s.items()}
            return outputs[s]
        return build(self.skeleton)


def fake_as_funcnode(alt_func, name, rename_attributes=None, experimental_warning=True):
    """Wrap `alt_func` so that each call is one FunctionNode named `name`.

    The Variables among the arguments (also inside lists/tuples of Variables) become
    the node's inputs; every other argument (defaults included) becomes an attribute
    of the node, named after the keyword or ``arg<N>`` for the N-th positional
    argument, or as `rename_attributes` (``[(1, 'value'), ('c', 'y')]``) says.  The
    results (arrays or Variables, possibly in tuples/lists/dicts) come back as Variables
    in the same structure.

    Raises:
        ValueError: no Variable among the arguments, or a list mixing Variables and
            other values.
    """
    def _wrapper(*args, **kwargs):
        inputs = []
        attributes = {}
        renames = dict(rename_attributes or ())
        bound = inspect.signature(alt_func).bind(*args, **kwargs)
        bound.apply_defaults()
        kwargs = dict(kwargs)
        for i, (key, value) in enumerate(bound.arguments.items()):
            if i >= len(args):
                kwargs[key] = value

        def set_attr(key, value):
            default = key if isinstance(key, str) else 'arg{}'.format(key)
            attributes[renames.get(key, default)] = value

        def expand(items):
            for key, value in items:
                if _is_var(value):
                    inputs.append(value)
                elif isinstance(value, (tuple, list)):
                    flat = _flatten(value)
                    is_var = [_is_var(v) for v in flat]
                    if flat and all(is_var):
                        inputs.extend(flat)
                    elif not any(is_var):
                        set_attr(key, value)
                    else:
                        raise ValueError('arguments mixed variable and other type are not '
                                         'supported (function name: {})'.format(name))
                else:
                    set_attr(key, value)

        expand(enumerate(args))
        expand(kwargs.items())
        if not inputs:
            raise ValueError('arguments of the function wrapped by \'as_funcnode\' must '
                             'include at least one chainer.Variable, function name: {}'
                             .format(name))
        node = WrappedFunctionNode(name, alt_func, args, kwargs, inputs,
                                   attributes=attributes)
        outputs = node.apply(inputs)
        return node.reconstruct_return_value(outputs)

    if experimental_warning:
        experimental('as_funcnode')
    return _wrapper


def as_funcnode(name, rename_attributes=None):
    """Decorator form of [`fake_as_funcnode`][minichainer.onnx.replace_func.fake_as_funcnode]."""
    def decorator(fn):
        return fake_as_funcnode(fn, name, rename_attributes=rename_attributes)
    return decorator
