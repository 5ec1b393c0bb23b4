"""Numerical gradient checking (``chainer.gradient_check``).

``check_backward`` compares the backward pass of a function with a central-difference
estimate of its directional derivative along a random direction, as Chainer does;
``check_double_backward`` does the same for the gradient of the gradient.
"""
import numpy

from minichainer import backend
from minichainer.configuration import using_config
from minichainer.variable import Variable


class NondifferentiableError(Exception):
    """The function is not differentiable at the point checked."""


def _as_tuple(x):
    if isinstance(x, tuple):
        return x
    if isinstance(x, list):
        return tuple(x)
    return (x,)


def _copy_arrays(xs):
    return [x.copy() if isinstance(x, numpy.ndarray) else numpy.array(x) for x in xs]


def numerical_grad(f, inputs, grad_outputs, eps=1e-3, detect_nondifferentiable=False,
                   diff_atol=0, diff_rtol=1e-2, center_outputs=None):
    """Central-difference gradient of ``f`` at ``inputs`` contracted with ``grad_outputs``.

    ``f`` takes no arguments and returns a tuple of arrays computed from the arrays in
    ``inputs``, which this function perturbs in place (and restores) one element at a time.

    Returns:
        tuple of arrays: the gradient with respect to each input.
    """
    if eps <= 0:
        raise ValueError('numerical_grad: eps must be positive, got {}'.format(eps))
    inputs = tuple(inputs)
    grad_outputs = tuple(grad_outputs)
    grads = []
    for x in inputs:
        gx = numpy.zeros(x.shape, dtype=numpy.float64)
        flat_x = x.reshape(-1) if x.flags.c_contiguous else None
        if flat_x is None:
            raise ValueError('numerical_grad: inputs must be C-contiguous arrays')
        for i in range(x.size):
            orig = flat_x[i].copy()
            values = []
            for delta in ((-2, -1, 1, 2) if detect_nondifferentiable else (1, -1)):
                flat_x[i] = orig + delta * eps
                with using_config('type_check', False):  # as in Chainer
                    ys = _as_tuple(f())
                values.append(_contract(ys, grad_outputs))
            flat_x[i] = orig
            if detect_nondifferentiable:
                ym2, ym1, yp1, yp2 = values
                left = (ym1 - ym2) / eps
                right = (yp2 - yp1) / eps
                center = (yp1 - ym1) / (2 * eps)
                scale = max(abs(left), abs(right), abs(center))
                if abs(left - right) > diff_atol + diff_rtol * scale and \
                        abs(left - center) + abs(right - center) > diff_atol + diff_rtol * scale:
                    raise NondifferentiableError(
                        'function looks non-differentiable at input element {} (one-sided '
                        'derivatives {} and {})'.format(i, left, right))
                gx.flat[i] = center
            else:
                gx.flat[i] = (values[0] - values[1]) / (2 * eps)
        grads.append(gx.astype(x.dtype) if x.dtype.kind == 'f' else gx)
    return tuple(grads)


def _contract(ys, grad_outputs):
    total = 0.0
    for y, gy in zip(ys, grad_outputs):
        if gy is None:
            continue
        y = numpy.asarray(y.array if isinstance(y, Variable) else y, dtype=numpy.float64)
        total += float((y * numpy.asarray(gy, dtype=numpy.float64)).sum())
    return total


def _is_float(x):
    return x.dtype.kind == 'f'


def check_backward(func, x_data, y_grad, params=(), eps=1e-3, atol=1e-5, rtol=1e-4,
                   no_grads=None, dtype=None, detect_nondifferentiable=False,
                   is_immutable_params=False):
    """Check the backward of ``func`` against a numerical directional derivative.

    Args:
        func: callable taking Variables and returning a Variable or a tuple of them.
        x_data: input array or tuple of arrays.
        y_grad: gradient array(s) of the outputs, or None for a scalar output.
        params: Parameters the function uses; their gradients are checked too.
        eps: step of the central difference.
        atol, rtol: tolerances of the comparison.
        no_grads: one bool per input; True skips the check for that input (default: inputs
            that are not floating point).
        dtype: dtype to run the numerical estimate in (e.g. float64 for float16 inputs).
        detect_nondifferentiable: raise :class:`NondifferentiableError` when the function
            looks non-differentiable at the point.

    Raises:
        AssertionError: the gradients do not match.
    """
    x_data = _as_tuple(x_data)
    params = _as_tuple(params)
    for i, x in enumerate(x_data):
        if not isinstance(x, numpy.ndarray):
            raise TypeError('check_backward: x_data[{}] must be a numpy.ndarray, got {}'.format(
                i, type(x).__name__))
    if no_grads is None:
        no_grads = [not _is_float(x) for x in x_data]
    elif len(no_grads) != len(x_data):
        raise ValueError('check_backward: no_grads must have one entry per input ({}), got '
                         '{}'.format(len(x_data), len(no_grads)))
    if y_grad is not None:
        y_grad = _as_tuple(y_grad)

    # Analytic gradients.
    xs = [Variable(x, requires_grad=not ng) for x, ng in zip(x_data, no_grads)]
    for p in params:
        p.cleargrad()
    ys = _as_tuple(func(*xs))
    ys = tuple(y if isinstance(y, Variable) else Variable(numpy.asarray(y)) for y in ys)
    if y_grad is None:
        if len(ys) != 1 or ys[0].size != 1:
            raise ValueError('check_backward: y_grad is None but the function returned {} '
                             'output(s) of shape(s) {}; give y_grad for non-scalar outputs'
                             .format(len(ys), [y.shape for y in ys]))
        y_grad = (numpy.ones_like(ys[0].array),)
    if len(y_grad) != len(ys):
        raise ValueError('check_backward: y_grad has {} entries but the function returned {} '
                         'outputs'.format(len(y_grad), len(ys)))
    for y, gy in zip(ys, y_grad):
        if gy is not None and gy.shape != y.shape:
            raise ValueError('check_backward: y_grad shape {} does not match output shape {}'
                             .format(gy.shape, y.shape))
    from minichainer.function_node import grad as _grad
    targets = [x for x, ng in zip(xs, no_grads) if not ng] + list(params)
    outs = [y for y, gy in zip(ys, y_grad) if gy is not None]
    gys = [Variable(gy, requires_grad=False) for gy in y_grad if gy is not None]
    if targets and outs:
        gxs = _grad(outs, targets, grad_outputs=gys)
    else:
        gxs = [None] * len(targets)
    for x, ng in zip(xs, no_grads):
        if ng and x.grad is not None:
            raise RuntimeError('check_backward: a gradient was set on an input marked in '
                               'no_grads')
    analytic = [None if g is None else g.array for g in gxs]

    # Random direction over all checked inputs and parameters.
    target_arrays = [x for x, ng in zip(x_data, no_grads) if not ng] + [p.array for p in params]
    if not target_arrays:
        return
    directions = [numpy.random.normal(size=a.shape) for a in target_arrays]
    norm = numpy.sqrt(sum(float(numpy.square(d).sum()) for d in directions))
    if norm == 0:
        norm = 1.0
    directions = [d / norm for d in directions]

    analytic_value = 0.0
    for g, d in zip(analytic, directions):
        if g is not None:
            analytic_value += float((g.astype(numpy.float64) * d).sum())

    work_dtype = None if dtype is None else numpy.dtype(dtype)
    param_arrays = [p.array for p in params]
    param_orig = [a.copy() for a in param_arrays]
    n_x = sum(1 for ng in no_grads if not ng)

    def evaluate(t):
        new_xs = []
        k = 0
        for x, ng in zip(x_data, no_grads):
            if ng:
                new_xs.append(x)
                continue
            base = numpy.asarray(x.astype(numpy.float64) + t * directions[k])
            new_xs.append(base.astype(work_dtype or x.dtype))
            k += 1
        for j, p in enumerate(params):
            moved = numpy.asarray(param_orig[j].astype(numpy.float64)
                                  + t * directions[n_x + j])
            if work_dtype is None:
                p.array[...] = moved.astype(p.dtype)
            else:
                # As Chainer does, the numerical estimate runs with the parameters cast to
                # ``dtype`` too; the original arrays are put back afterwards.
                p.array = moved.astype(work_dtype)
        # As in Chainer, the numerical estimate runs without type checks (the inputs
        # may have been cast to ``dtype``).
        with using_config('type_check', False):
            outs = _as_tuple(func(*[Variable(a, requires_grad=not ng)
                                    for a, ng in zip(new_xs, no_grads)]))
        return _contract(outs, y_grad)

    try:
        if detect_nondifferentiable:
            values = [evaluate(k * eps) for k in (-2, -1, 1, 2)]
            ym2, ym1, yp1, yp2 = values
            left = (ym1 - ym2) / eps
            right = (yp2 - yp1) / eps
            numerical_value = (yp1 - ym1) / (2 * eps)
            scale = max(abs(left), abs(right), abs(numerical_value))
            if abs(left - right) > atol + 1e-2 * scale:
                raise NondifferentiableError(
                    'check_backward: the function looks non-differentiable at the given '
                    'point (left derivative {}, right derivative {})'.format(left, right))
        else:
            numerical_value = (evaluate(eps) - evaluate(-eps)) / (2 * eps)
    finally:
        for p, array, orig in zip(params, param_arrays, param_orig):
            array[...] = orig
            p.array = array

    if not abs(numerical_value - analytic_value) <= atol + rtol * abs(numerical_value):
        lines = ['check_backward failed (eps={} atol={} rtol={})'.format(eps, atol, rtol),
                 'directional derivative: numerical {!r} != analytic {!r}'.format(
                     numerical_value, analytic_value)]
        for i, (x, ng) in enumerate(zip(x_data, no_grads)):
            lines.append('input[{}]: shape {} dtype {}{}'.format(
                i, x.shape, x.dtype, ' (no grad)' if ng else ''))
        k = 0
        for i, (x, ng) in enumerate(zip(x_data, no_grads)):
            if ng:
                continue
            g = analytic[k]
            lines.append('grad[{}] analytic: {}'.format(
                i, None if g is None else numpy.array2string(g, threshold=20)))
            k += 1
        raise AssertionError('\n'.join(lines))


def check_double_backward(func, x_data, y_grad, x_grad_grad, params=(),
                          params_grad_grad=(), eps=1e-3, atol=1e-4, rtol=1e-3,
                          no_grads=None, dtype=None, detect_nondifferentiable=False):
    """Check second-order gradients: ``check_backward`` of the first-order gradient.

    The first-order gradient is a function of the inputs and of ``y_grad``; its gradient
    with respect to both is compared with a numerical estimate, contracted with
    ``x_grad_grad`` (and ``params_grad_grad``).
    """
    from minichainer.function_node import grad as _grad
    x_data = _as_tuple(x_data)
    params = _as_tuple(params)
    y_grad = _as_tuple(y_grad) if y_grad is not None else None
    x_grad_grad = _as_tuple(x_grad_grad)
    params_grad_grad = _as_tuple(params_grad_grad)
    n_x = len(x_data)
    if no_grads is None:
        no_grads = [not _is_float(x) for x in x_data]
    first_no_grads = list(no_grads)

    def first_order_grad(*inputs):
        xs = inputs[:n_x]
        gys = inputs[n_x:]
        ys = _as_tuple(func(*xs))
        targets = [x for x, ng in zip(xs, first_no_grads) if not ng] + list(params)
        if y_grad_mask is None:
            outs, out_grads = list(ys), None
        else:
            if len(y_grad_mask) != len(ys):
                raise ValueError('check_double_backward: y_grad has {} entries but the '
                                 'function returned {} outputs'.format(
                                     len(y_grad_mask), len(ys)))
            outs = [y for y, m in zip(ys, y_grad_mask) if m]
            out_grads = list(gys)
        with using_config('enable_backprop', True):
            gxs = _grad(outs, targets, grad_outputs=out_grads, enable_double_backprop=True)
        ret = []
        for g, t in zip(gxs, targets):
            if g is None:
                g = Variable(numpy.zeros_like(t.array), requires_grad=False)
            ret.append(g)
        return tuple(ret)

    if y_grad is not None:
        # outputs without a gradient take no part: pass only the given ones as inputs
        y_grad_mask = tuple(g is not None for g in y_grad)
        given_y_grad = tuple(g for g in y_grad if g is not None)
    else:
        y_grad_mask = None
        given_y_grad = ()
    inputs = x_data + given_y_grad
    grad_grad = tuple(g for g, ng in zip(x_grad_grad, no_grads) if not ng) \
        if len(x_grad_grad) == n_x else x_grad_grad
    grad_grad = grad_grad + params_grad_grad
    all_no_grads = list(no_grads) + [False] * (len(inputs) - n_x)
    check_backward(first_order_grad, inputs, grad_grad, params=params, eps=eps, atol=atol,
                   rtol=rtol, no_grads=all_no_grads, dtype=dtype,
                   detect_nondifferentiable=detect_nondifferentiable)
