"""Type checking of function inputs (`chainer.utils.type_check`).

`check_type_forward(in_types)` methods describe conditions with a small expression
language: `type_check.expect(x_type.ndim == 2)`.  A check first runs in *light mode*,
where the "types" are the real arrays and conditions are plain booleans (cheap).  Only when
that fails is it run again on `Expr` trees, which know how to print themselves, so the
error reads `Expect: x.shape[1] == W.shape[1]` / `Actual: 5 != 8`.
"""
import contextlib
import operator
import threading

import numpy

# Per thread: `current_function` (the function node whose types are being checked, named
# in error messages) and `light_mode` (FunctionNode.apply's first, cheap check).
thread_state = threading.local()
_thread_local = thread_state  # Chainer's name


@contextlib.contextmanager
def get_function_check_context(f):
    """Name `f` (a function node) in the messages of errors raised inside the block."""
    previous = getattr(thread_state, 'current_function', None)
    thread_state.current_function = f
    try:
        yield
    finally:
        thread_state.current_function = previous


class TypeInfo:
    """Shape and dtype of one array, without the data."""

    def __init__(self, shape, dtype):
        self.shape = shape
        self.dtype = dtype
        self.ndim = len(shape)

    @property
    def size(self):
        result = 1
        for n in self.shape:
            result *= n
        return result


class TypeInfoTuple(tuple):
    """Tuple of `Variable` expressions describing the inputs."""

    def size(self):
        return Variable(len(self), '{}.size'.format(self.name))


class LightTypeInfoTuple(tuple):
    """Tuple of the real arrays, used in light mode."""

    def size(self):
        return len(self)


def get_types(data, name, accept_none):
    """Return a `TypeInfoTuple` describing the arrays in `data` (a tuple)."""
    assert isinstance(data, tuple), data  # as Chainer
    info = TypeInfoTuple(_get_type(name, i, x, accept_none) for i, x in enumerate(data))
    info.name = name
    return info


def get_light_types(data):
    return LightTypeInfoTuple(data)


def _get_type(name, index, array, accept_none):
    label = '{}[{}]'.format(name, index)
    if accept_none and array is None:
        return Variable(TypeInfo((), None), label)
    return Variable(TypeInfo(array.shape, array.dtype), label)


def _repr(value):
    if isinstance(value, Expr):
        return str(value)
    if isinstance(value, list):
        return '[{}]'.format(', '.join(_repr(v) for v in value))
    if isinstance(value, tuple):
        if len(value) == 1:
            return '({},)'.format(_repr(value[0]))
        return '({})'.format(', '.join(_repr(v) for v in value))
    return repr(value)


def _eval_expr(value):
    if isinstance(value, Expr):
        return value.eval()
    if isinstance(value, list):
        return [_eval_expr(v) for v in value]
    if isinstance(value, tuple):
        return tuple(_eval_expr(v) for v in value)
    return value


def _unary(symbol, priority, func):
    def make(x):
        return UnaryOperator(priority, x, symbol, func)
    return make


def _binary(symbol, priority, func, right_associative=False):
    def make(x, y):
        return BinaryOperator(priority, x, y, symbol, func, right_associative)
    return make


def _comparison(symbol, inverse, func):
    def make(x, y):
        return BoolBinaryOperator(x, y, symbol, inverse, func)
    return make


def _reflected(make):
    return lambda x, y: make(y, x)


class Expr:
    """A node of an expression tree; `eval()` computes it, `str()` prints it."""

    def __init__(self, priority):
        self.priority = priority

    def eval(self):
        raise NotImplementedError

    def __getattr__(self, name):
        if name.startswith('__') and name.endswith('__'):
            raise AttributeError(name)
        return GetAttr(self, name)

    def __getitem__(self, key):
        return GetItem(self, key)

    def __call__(self, *args):
        return Call(self, args)

    def __bool__(self):
        raise RuntimeError("Don't convert Expr to bool. "
                           'Please call Expr.eval method to evaluate expression.')

    __hash__ = object.__hash__

    __eq__ = _comparison('==', '!=', operator.eq)
    __ne__ = _comparison('!=', '==', operator.ne)
    __lt__ = _comparison('<', '>=', operator.lt)
    __le__ = _comparison('<=', '>', operator.le)
    __gt__ = _comparison('>', '<=', operator.gt)
    __ge__ = _comparison('>=', '<', operator.ge)

    __add__ = _binary('+', 4, operator.add)
    __radd__ = _reflected(__add__)
    __sub__ = _binary('-', 4, operator.sub)
    __rsub__ = _reflected(__sub__)
    __mul__ = _binary('*', 5, operator.mul)
    __rmul__ = _reflected(__mul__)
    __truediv__ = _binary('/', 5, operator.truediv)
    __rtruediv__ = _reflected(__truediv__)
    __floordiv__ = _binary('//', 5, operator.floordiv)
    __rfloordiv__ = _reflected(__floordiv__)
    __mod__ = _binary('%', 5, operator.mod)
    __rmod__ = _reflected(__mod__)
    __pow__ = _binary('**', 7, operator.pow, right_associative=True)
    __lshift__ = _binary('<<', 3, operator.lshift)
    __rlshift__ = _reflected(__lshift__)
    __rshift__ = _binary('>>', 3, operator.rshift)
    __rrshift__ = _reflected(__rshift__)
    __and__ = _binary('&', 2, operator.and_)
    __rand__ = _reflected(__and__)
    __xor__ = _binary('^', 1, operator.xor)
    __rxor__ = _reflected(__xor__)
    __or__ = _binary('|', 0, operator.or_)
    __ror__ = _reflected(__or__)
    __neg__ = _unary('-', 6, operator.neg)
    __pos__ = _unary('+', 6, operator.pos)
    __invert__ = _unary('~', 6, operator.invert)


class Atom(Expr):
    def __init__(self):
        super().__init__(8)


class Constant(Atom):
    def __init__(self, value):
        super().__init__()
        self.value = value

    def __str__(self):
        return _repr(self.value)

    def eval(self):
        return self.value


class Variable(Atom):
    """A named leaf of an expression (an input's type info, or a value)."""

    def __init__(self, value, name):
        super().__init__()
        self.value = value
        self.name = name

    def __str__(self):
        return self.name

    def eval(self):
        return self.value


class GetAttr(Atom):
    def __init__(self, obj, name):
        super().__init__()
        self.obj = obj
        self.name = name

    def __str__(self):
        name = self.name
        if isinstance(name, Constant) and isinstance(name.value, str):
            name = name.value
        if isinstance(name, str):
            return '{}.{}'.format(_repr(self.obj), name)
        return 'getattr({}, {})'.format(_repr(self.obj), _repr(self.name))

    def eval(self):
        return getattr(_eval_expr(self.obj), _eval_expr(self.name))


def _str_subscript(key):
    if key is Ellipsis:
        return '...'
    if isinstance(key, slice):
        parts = ['' if v is None else _repr(v) for v in (key.start, key.stop)]
        if key.step is not None:
            parts.append(_repr(key.step))
        return ':'.join(parts)
    if isinstance(key, tuple):
        return ', '.join(_str_subscript(k) for k in key)
    return _repr(key)


class GetItem(Atom):
    def __init__(self, obj, key):
        super().__init__()
        self.obj = obj
        self.key = key

    def __str__(self):
        return '{}[{}]'.format(_repr(self.obj), _str_subscript(self.key))

    def eval(self):
        return _eval_expr(self.obj)[_eval_expr(self.key)]


class Call(Atom):
    def __init__(self, obj, args):
        super().__init__()
        self.obj = obj
        self.args = tuple(args)

    def __str__(self):
        return '{}({})'.format(_repr(self.obj), ', '.join(_repr(a) for a in self.args))

    def eval(self):
        return _eval_expr(self.obj)(*[_eval_expr(a) for a in self.args])


class UnaryOperator(Expr):
    def __init__(self, priority, term, exp, func):
        super().__init__(priority)
        self.term = term
        self.exp = exp
        self.func = func

    def eval(self):
        return self.func(_eval_expr(self.term))

    def __str__(self):
        text = _repr(self.term)
        if isinstance(self.term, Expr) and self.term.priority < self.priority:
            text = '(' + text + ')'
        return self.exp + text


class BinaryOperator(Expr):
    def __init__(self, priority, lhs, rhs, exp, func, right_associative=False):
        super().__init__(priority)
        self.lhs = lhs
        self.rhs = rhs
        self.exp = exp
        self.func = func
        self.right_associative = right_associative

    def _eval_left(self):
        return _eval_expr(self.lhs)

    def _eval_right(self):
        return _eval_expr(self.rhs)

    def eval(self):
        return self.func(self._eval_left(), self._eval_right())

    def __str__(self):
        left = _repr(self.lhs)
        if isinstance(self.lhs, Expr) and (
                self.lhs.priority < self.priority
                or (self.right_associative and self.lhs.priority == self.priority)):
            left = '(' + left + ')'
        right = _repr(self.rhs)
        if isinstance(self.rhs, Expr) and (
                self.rhs.priority < self.priority
                or (not self.right_associative and self.rhs.priority == self.priority)):
            right = '(' + right + ')'
        return '{} {} {}'.format(left, self.exp, right)


class Testable:
    def expect(self):
        raise NotImplementedError


class BoolBinaryOperator(BinaryOperator, Testable):
    """A comparison; `expect()` raises `InvalidType` when it does not hold."""

    def __init__(self, lhs, rhs, exp, inv, func):
        BinaryOperator.__init__(self, -1, lhs, rhs, exp, func)
        self.inv = inv

    def expect(self):
        left = self._eval_left()
        right = self._eval_right()
        if not self.func(left, right):
            raise InvalidType('{} {} {}'.format(self.lhs, self.exp, self.rhs),
                              '{} {} {}'.format(left, self.inv, right))


class InvalidType(Exception):
    """Raised when the inputs of a function do not satisfy its type conditions."""

    def __init__(self, expect, actual, msg=None):
        if msg is None:
            msg = 'Expect: {}\nActual: {}'.format(expect, actual)
            current = getattr(thread_state, 'current_function', None)
            if current is not None:
                msg = '\nInvalid operation is performed in: {} (Forward)\n\n{}'.format(
                    current.label, msg)
        super().__init__(msg)
        self.expect = expect
        self.actual = actual

    def __reduce__(self):
        return type(self), (self.expect, self.actual, str(self))


def argname(in_types, names):
    """Give the input types readable names (`x`, `W`) for error messages."""
    if len(in_types) != len(names):
        raise InvalidType('{} argument(s)'.format(len(names)),
                          '{} argument(s)'.format(len(in_types)),
                          'Invalid number of arguments')
    if in_light_mode():
        return  # the types are plain arrays here: there is nothing to name
    for in_type, name in zip(in_types, names):
        if isinstance(in_type, Variable):
            in_type.name = name


_argname = argname


def in_light_mode():
    return getattr(thread_state, 'light_mode', False)


class LightMode:
    def __enter__(self):
        thread_state.light_mode = True

    def __exit__(self, exc_type, exc_value, traceback):
        thread_state.light_mode = False


light_mode = LightMode()


def expect(*bool_exprs):
    """Check every condition; raise `InvalidType` at the first that fails."""
    if in_light_mode():
        if not all(bool_exprs):
            raise InvalidType('', '')
        return
    for expr in bool_exprs:
        if not isinstance(expr, Testable):
            raise TypeError('type_check.expect takes comparisons of type expressions, '
                            'got {!r}'.format(expr))
        expr.expect()


def same_types(*arrays):
    """True when all arrays are of one array type (all NumPy here)."""
    return all(isinstance(x, numpy.ndarray) for x in arrays)


def eval(exp):  # noqa: A001 - Chainer's name
    """Evaluate an expression (returns it unchanged in light mode)."""
    return exp if in_light_mode() else exp.eval()


def make_variable(value, name):
    return value if in_light_mode() else Variable(value, name)


def _prod_impl(xs):
    result = 1
    for x in xs:
        result *= x
    return result


_prod = Variable(_prod_impl, 'prod')


def prod(xs):
    """Product of the items of `xs` (an expression outside light mode)."""
    return _prod_impl(xs) if in_light_mode() else _prod(xs)


def expect_axis(x_type, axis):
    """Check that `axis` (an int, or a tuple of ints checked one by one) is a valid axis
    of the input `x_type`; the error names the axis argument and `x.ndim`."""
    ndim = eval(x_type.ndim)
    axes = axis if isinstance(axis, tuple) else (axis,)
    for a in axes:
        if not -ndim <= a < ndim:
            raise InvalidType(
                '-x.ndim <= axis < x.ndim' + (' for each value of the axis argument'
                                              if isinstance(axis, tuple)
                                              else ' (the axis argument)'),
                'axis={}, x.ndim={}'.format(a if len(axes) == 1 else axis, ndim))


def expect_broadcast_shapes(*shape_types):
    """Check that the given shapes broadcast together."""
    shapes = [eval(s) for s in shape_types]
    if in_light_mode():
        first = shapes[0]
        if all(s == first for s in shapes):
            return
    try:
        numpy.broadcast_shapes(*shapes)
    except ValueError:
        lines = ['cannot broadcast inputs of the following shapes:']
        current = getattr(thread_state, 'current_function', None)
        if current is not None:
            lines.insert(0, 'Invalid operation is performed in: {} (Forward)'.format(
                current.label))
        lines.extend('{} = {}'.format(t, s) for t, s in zip(shape_types, shapes))
        raise InvalidType('', '', msg='\n'.join(lines)) from None
