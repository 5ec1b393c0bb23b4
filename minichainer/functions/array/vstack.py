"""Vertical (row-wise) stacking (`chainer.functions.vstack`)."""
from minichainer import backend
from minichainer.functions.array.hstack import ArrayStack
from minichainer.functions.array.hstack import check_stack_types


class Vstack(ArrayStack):
    """Concatenate arrays vertically, as `numpy.vstack`."""

    axis = 0
    promoted_ndim = 1

    def check_type_forward(self, in_types):
        check_stack_types(in_types, 0, 1, True, argnames=False)

    def forward(self, xs):
        xp = backend.get_array_module(*xs)
        return xp.vstack(xs),


def vstack(xs):
    """Concatenate variables vertically (along axis 0; 0-d/1-D inputs become rows).

    Args:
        xs (sequence of Variable or numpy.ndarray): Inputs of one dtype and
            ndim whose shapes agree except along axis 0 (exactly, for 0-d/1-D inputs).

    Returns:
        Variable: The stacked variable.
    """
    return Vstack().apply(xs)[0]
