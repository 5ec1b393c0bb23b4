"""`linear_interpolate`: elementwise `p * x + (1 - p) * y`."""
from minichainer import function_node
from minichainer import utils
from minichainer.functions import _fast
from minichainer.utils import type_check


class LinearInterpolate(function_node.FunctionNode):
    """Elementwise linear interpolation `p * x + (1 - p) * y`."""

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('p', 'x', 'y'))
        p_type, x_type, y_type = in_types
        type_check.expect(
            p_type.dtype.kind == 'f',
            x_type.dtype == p_type.dtype,
            y_type.dtype == p_type.dtype,
            p_type.shape == x_type.shape,
            p_type.shape == y_type.shape,
        )

    def forward(self, inputs):
        self.retain_inputs((0, 1, 2))
        p, x, y = inputs
        # y + p * (x - y) == p * x + (1 - p) * y with one temporary less.
        z = x - y
        z *= p
        z += y
        return utils.force_array(z),

    def backward(self, indexes, grad_outputs):
        p, x, y = self.get_retained_inputs()
        g, = grad_outputs
        if not _fast.needs_graph():
            return tuple(_fast.as_grad(a) for a in LinearInterpolateGrad().forward(
                (p.array, x.array, y.array, g.array)))
        return LinearInterpolateGrad().apply((p, x, y, g))


class LinearInterpolateGrad(function_node.FunctionNode):
    """Gradients of `LinearInterpolate`: `((x - y) g, p g, (1 - p) g)`."""

    def forward(self, inputs):
        self.retain_inputs((0, 1, 2, 3))
        p, x, y, g = inputs
        pg = p * g
        return (utils.force_array((x - y) * g),
                utils.force_array(pg),
                utils.force_array(g - pg))

    def backward(self, indexes, grad_outputs):
        p, x, y, g = self.get_retained_inputs()
        g0, g1, g2 = grad_outputs
        zero = None
        if g0 is None or g1 is None or g2 is None:
            zero = p.array.dtype.type(0) * p
        g0 = zero if g0 is None else g0
        g1 = zero if g1 is None else g1
        g2 = zero if g2 is None else g2
        ggp = g * (g1 - g2)
        ggx = g * g0
        ggy = -ggx
        gg = (x - y) * g0 + p * g1 + (1 - p) * g2
        return ggp, ggx, ggy, gg


def linear_interpolate(p, x, y):
    """Elementwise linear interpolation `f(p, x, y) = p x + (1 - p) y`.

    Args:
        p (Variable or ndarray): Interpolation weights.
        x (Variable or ndarray): Input variable (same shape and dtype).
        y (Variable or ndarray): Input variable (same shape and dtype).

    Returns:
        Variable: Output variable.
    """
    return LinearInterpolate().apply((p, x, y))[0]
