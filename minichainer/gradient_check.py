"""Numerical gradient checking (`chainer.gradient_check`).

`check_backward` compares the backward pass of a function with a central-difference
estimate of its directional derivative along a random direction, as Chainer does;
`check_double_backward` does the same for the gradient of the gradient.
"""
import numpy

from minichainer import backend
from minichainer import function_node
from minichainer.configuration import using_config
from minichainer.testing.array import assert_allclose  # noqa: F401 (re-exported as Chainer)
from minichainer.variable import Variable


class NondifferentiableError(Exception):
    """The function is not differentiable at the point checked."""


class _InvalidEps(ValueError, AssertionError):
    """A non-positive `eps` (an AssertionError too, which Chainer raises)."""


def _as_tuple(x):
    if isinstance(x, tuple):
        return x
    if isinstance(x, list):
        return tuple(x)
    return (x,)


def _copy_arrays(xs):
    return [x.copy() if isinstance(x, backend.get_array_types()) else numpy.array(x)
            for x in xs]


def _host(array):
    """A NumPy array of `array` (one device-to-host copy for a GPU array)."""
    if array is None or isinstance(array, numpy.ndarray):
        return array
    return backend.CpuDevice().send(array)


def numerical_grad(f, inputs, grad_outputs, eps=1e-3, detect_nondifferentiable=False,
                   diff_atol=0, diff_rtol=1e-2, center_outputs=None):
    """Central-difference gradient of `f` at `inputs` contracted with `grad_outputs`.

    `f` takes no arguments and returns a tuple of arrays computed from the arrays in
    `inputs`, which this function perturbs in place (and restores) one element at a time.

    Returns:
        tuple of arrays: the gradient with respect to each input.
    """
    if eps <= 0:
        raise _InvalidEps('numerical_grad: eps must be positive, got {}'.format(eps))
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

            def outputs_at(t):
                flat_x[i] = orig + t
                try:
                    with using_config('type_check', False):  # as in Chainer
                        return _float64_outputs(f())
                finally:
                    flat_x[i] = orig
            gx.flat[i] = _derivative(
                outputs_at, eps, grad_outputs, detect_nondifferentiable, diff_atol,
                diff_rtol, 'input element {}'.format(i))
        gx = gx.astype(x.dtype) if x.dtype.kind == 'f' else gx
        if not isinstance(x, numpy.ndarray):  # a GPU input: the gradient on its device
            gx = backend.get_device_from_array(x).send(gx)
        grads.append(gx)
    return tuple(grads)


def _contract(ys, grad_outputs):
    total = 0.0
    for y, gy in zip(ys, grad_outputs):
        if gy is None:
            continue
        y = numpy.asarray(_host(y.array if isinstance(y, Variable) else y),
                          dtype=numpy.float64)
        total += float((y * numpy.asarray(_host(gy), dtype=numpy.float64)).sum())
    return total


def _float64_outputs(ys):
    out = []
    for y in _as_tuple(ys):
        if y is None:
            out.append(None)
        else:
            out.append(numpy.array(_host(y.array if isinstance(y, Variable) else y),
                                   dtype=numpy.float64))
    return out


_SAMPLE_POINTS = (-1., -.5, 0., .5, 1.)


def _derivative(outputs_at, eps, grad_outputs, detect, diff_atol, diff_rtol, where):
    """d/dt at t=0 of the outputs at displacement `t` contracted with `grad_outputs`.

    Without `detect`: central difference over `t = +-eps`. With it, as Chainer: the
    outputs are sampled at `t = -eps, -eps/2, 0, eps/2, eps`; an element whose
    finiteness changes between samples, or whose samples a quadratic fits worse (RMS)
    than `diff_atol + diff_rtol * (max - min)`, means a non-differentiable point
    ([`NondifferentiableError`][minichainer.gradient_check.NondifferentiableError]); the derivative
    is then the five-point stencil.
    """
    if not detect:
        return (_contract(outputs_at(eps), grad_outputs)
                - _contract(outputs_at(-eps), grad_outputs)) / (2 * eps)
    samples = [outputs_at(k * eps) for k in _SAMPLE_POINTS]
    _check_differentiable(samples, diff_atol, diff_rtol, eps, where)
    c = [_contract(ys, grad_outputs) for ys in samples]
    return (c[0] - 8 * c[1] + 8 * c[3] - c[4]) / (6 * eps)


def _check_differentiable(samples, diff_atol, diff_rtol, eps, where):
    columns = [numpy.concatenate([y.ravel() for y in ys if y is not None] or
                                 [numpy.zeros(0)]) for ys in samples]
    stack = numpy.vstack(columns)   # (5, number of output elements)
    if stack.shape[1] == 0:
        return

    def fail(reason):
        rows = '\n'.join('  y(x{:+g}*eps): {}'.format(k, numpy.array2string(
            row, threshold=10)) for k, row in zip(_SAMPLE_POINTS, stack))
        raise NondifferentiableError(
            'Tried to compute the numeric gradient on a non-differentiable point '
            '({}, eps={}): {}\n{}'.format(where, eps, reason, rows))
    finite = numpy.isfinite(stack)
    if (finite != finite[0]).any():
        fail('the finiteness of the outputs changes around the point')
    if not finite.all():
        return   # consistently non-finite outputs are not taken as a kink
    _, (residuals, _, _, _) = numpy.polynomial.polynomial.polyfit(
        numpy.arange(len(stack)), stack, deg=2, full=True)
    residuals = numpy.sqrt(residuals / len(stack))
    ymax, ymin = stack.max(axis=0), stack.min(axis=0)
    bad = (diff_atol + diff_rtol * (ymax - ymin) < residuals) & (ymax != ymin)
    if bad.any():
        fail('a quadratic does not fit the outputs (fitting error {} > {} + {} * '
             '(max - min))'.format(residuals[bad].max(), diff_atol, diff_rtol))


def _unit_directions(shapes):
    """A random unit direction over arrays of `shapes`, drawn as Chainer does.

    One `numpy.random.normal` draw of the total size (the same stream as Chainer's),
    normalized with every component at least `0.1 / sqrt(size)` in magnitude:
    `sign(d) * sqrt(0.99 * d**2 / |d|**2 + 0.01 / size)`.
    """
    sizes = [int(numpy.prod(shape, dtype=numpy.int64)) for shape in shapes]
    flat = _CheckBackward._sample_unit_vector(sum(sizes), numpy)
    out = []
    offset = 0
    for shape, size in zip(shapes, sizes):
        out.append(flat[offset:offset + size].reshape(shape))
        offset += size
    return out


class _CheckBackward:
    """Chainer's internal runner of [`check_backward`][minichainer.gradient_check.check_backward]
    (some tests build it directly).

    `_CheckBackward(func, xs, gys, params, eps, atol, rtol, no_gxs, dtype,
    detect_nondifferentiable, is_immutable_params).run()` is `check_backward` with those
    arguments.
    """

    def __init__(self, func, xs, gys, params, eps, atol, rtol, no_gxs, dtype,
                 detect_nondifferentiable, is_immutable_params):
        if dtype is not None and numpy.dtype(dtype).kind != 'f':
            raise ValueError('check_backward: dtype must be a float dtype, got {}'.format(
                numpy.dtype(dtype)))
        self.func = func
        self.x_data = xs
        self.y_grad = gys
        self.params = params
        self.eps = eps
        self.atol = atol
        self.rtol = rtol
        self.no_grads = no_gxs
        self.dtype = dtype
        self.detect_nondifferentiable = detect_nondifferentiable
        self.is_immutable_params = is_immutable_params

    def run(self):
        check_backward(self.func, self.x_data, self.y_grad, self.params, self.eps,
                       self.atol, self.rtol, self.no_grads, self.dtype,
                       self.detect_nondifferentiable, self.is_immutable_params)

    @staticmethod
    def _sample_unit_vector(size, xp):
        """A random unit vector of `size` elements, each at least `0.1 / sqrt(size)`
        in magnitude (one `xp.random.normal` draw)."""
        directions = xp.random.normal(size=(size,))
        if size == 0:
            return directions
        squares = xp.square(directions)
        return xp.copysign(xp.sqrt((0.99 / squares.sum()) * squares + 0.01 / size),
                           directions)


def _is_float(x):
    return x.dtype.kind == 'f'


def check_backward(func, x_data, y_grad, params=(), eps=1e-3, atol=1e-5, rtol=1e-4,
                   no_grads=None, dtype=None, detect_nondifferentiable=False,
                   is_immutable_params=False):
    """Check the backward of `func` against a numerical directional derivative.

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
        detect_nondifferentiable: raise
            [`NondifferentiableError`][minichainer.gradient_check.NondifferentiableError] when the
            function looks non-differentiable at the point.

    Raises:
        AssertionError: the gradients do not match.
    """
    x_data = _as_tuple(x_data)
    params = _as_tuple(params)
    array_types = backend.get_array_types()  # NumPy, and CuPy while in use
    for i, x in enumerate(x_data):
        if not isinstance(x, array_types):
            raise TypeError('check_backward: x_data[{}] must be a numpy.ndarray{}, got {}'
                            .format(i, ' or cupy.ndarray' if len(array_types) > 1 else '',
                                    type(x).__name__))
    if no_grads is None:
        no_grads = [not _is_float(x) for x in x_data]
    elif len(no_grads) != len(x_data):
        raise ValueError('check_backward: no_grads must have one entry per input ({}), got '
                         '{}'.format(len(x_data), len(no_grads)))
    if y_grad is not None:
        y_grad = _as_tuple(y_grad)

    # Analytic gradients. As in Chainer every float input requires a gradient, and one
    # marked in no_grads must not receive any.
    xs = [Variable(x, requires_grad=_is_float(x)) for x in x_data]
    for p in params:
        p.cleargrad()
    ys = _as_tuple(func(*xs))
    ys = tuple(y if isinstance(y, Variable) else Variable(
        y if isinstance(y, array_types) else numpy.asarray(y)) for y in ys)
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
    float_xs = [x for x in xs if x.requires_grad]
    targets = float_xs + list(params)
    outs = [y for y, gy in zip(ys, y_grad) if gy is not None]
    gys = [Variable(gy, requires_grad=False) for gy in y_grad if gy is not None]
    if targets and outs:
        gxs = function_node.grad(outs, targets, grad_outputs=gys)
    else:
        gxs = [None] * len(targets)
    x_grads = dict(zip(map(id, float_xs), gxs[:len(float_xs)]))
    analytic = []
    for i, (x, ng) in enumerate(zip(xs, no_grads)):
        g = x_grads.get(id(x))
        if ng:
            if g is not None or x.grad is not None:
                raise RuntimeError('check_backward: backward computed a gradient of input '
                                   '{}, which no_grads marks as having none (gradient of '
                                   'int variable must be None)'.format(i))
        else:
            analytic.append(None if g is None else g.array)
    analytic += [None if g is None else g.array for g in gxs[len(float_xs):]]

    # Random direction over all checked inputs and parameters.
    target_arrays = [x for x, ng in zip(x_data, no_grads) if not ng] + [p.array for p in params]
    if not target_arrays:
        return
    directions = _unit_directions([a.shape for a in target_arrays])
    # drawn on the host (NumPy's stream, as on the CPU); sent to each GPU input's device
    directions = [d if isinstance(a, numpy.ndarray) else
                  backend.get_device_from_array(a).send(d)
                  for a, d in zip(target_arrays, directions)]

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
                # as in Chainer, a skipped float input is cast to ``dtype`` too
                new_xs.append(x.astype(work_dtype, copy=False)
                              if work_dtype is not None and _is_float(x) else x)
                continue
            base = x.astype(numpy.float64) + t * directions[k]
            if isinstance(x, numpy.ndarray):
                base = numpy.asarray(base)
            new_xs.append(base.astype(work_dtype or x.dtype))
            k += 1
        for j, p in enumerate(params):
            moved = param_orig[j].astype(numpy.float64) + t * directions[n_x + j]
            if isinstance(param_orig[j], numpy.ndarray):
                moved = numpy.asarray(moved)
            if work_dtype is None:
                p.array[...] = moved.astype(p.dtype)
            else:
                # As Chainer does, the numerical estimate runs with the parameters cast to
                # ``dtype`` too; the original arrays are put back afterwards.
                p.array = moved.astype(work_dtype)
        # As in Chainer, the numerical estimate runs without type checks (the inputs
        # may have been cast to ``dtype``).
        with using_config('type_check', False):
            return _float64_outputs(func(*[Variable(a, requires_grad=not ng)
                                           for a, ng in zip(new_xs, no_grads)]))

    try:
        # Chainer's tolerances for the non-differentiability test: diff_atol=0,
        # diff_rtol=rtol.
        numerical_value = _derivative(evaluate, eps, y_grad, detect_nondifferentiable,
                                      0, rtol, 'along a random direction')
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
                i, None if g is None else numpy.array2string(_host(g), threshold=20)))
            k += 1
        raise AssertionError('\n'.join(lines))


def check_double_backward(func, x_data, y_grad, x_grad_grad, params=(),
                          params_grad_grad=(), eps=1e-3, atol=1e-4, rtol=1e-3,
                          no_grads=None, dtype=None, detect_nondifferentiable=False):
    """Check second-order gradients: `check_backward` of the first-order gradient.

    The first-order gradient is a function of the inputs and of `y_grad`; its gradient
    with respect to both is compared with a numerical estimate, contracted with
    `x_grad_grad` (and `params_grad_grad`).
    """
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
            gxs = function_node.grad(outs, targets, grad_outputs=out_grads,
                                     enable_double_backprop=True)
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
