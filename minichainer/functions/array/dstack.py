"""Depth-wise stacking (`chainer.functions.dstack`)."""
from minichainer import backend
from minichainer.functions.array.hstack import ArrayStack
from minichainer.functions.array.hstack import check_stack_types


class Dstack(ArrayStack):
    """Concatenate arrays along the third axis, as `numpy.dstack`."""

    axis = 2
    promoted_ndim = 2

    def check_type_forward(self, in_types):
        check_stack_types(in_types, 2, 2, True)

    def forward(self, xs):
        xp = backend.get_array_module(*xs)
        return xp.dstack(xs),


def dstack(xs):
    """Concatenate variables along the third axis (inputs of ndim < 3 are promoted first).

    Args:
        xs (sequence of Variable or numpy.ndarray): Inputs of one dtype and
            ndim whose shapes agree except along axis 2 (exactly, for ndim <= 2).

    Returns:
        Variable: The stacked variable.
    """
    return Dstack().apply(xs)[0]
