"""The CPU-meaningful part of ChainerMN's `chainermn.communicators._memory_utility`.

Programs and tests written for ChainerMN import it for the parameter lists a communicator
packs and for `array_to_buffer_object` (what mpi4py's buffer-based collectives take).
Its GPU buffers (`HostPinnedMemory`, `DeviceMemory`) need CUDA, which minichainer
does not have: creating one raises. Unlike ChainerMN's, importing this module does not
import mpi4py (`mpi_dtype` defaults to None; a NumPy array carries its own type).
"""
import numpy

from minichainer import backend


def extract_params_set_data(model):
    """The parameters of `model` that hold an array, sorted by name."""
    return [param for _, param in sorted(model.namedparams(), key=lambda item: item[0])
            if param.array is not None]


def extract_params_set_grad(model, zero_fill):
    """The parameters whose gradients are communicated: those holding an array, and with
    `zero_fill` False only those that also have a gradient (sorted by name)."""
    return [param for param in extract_params_set_data(model)
            if zero_fill or param.grad is not None]


def count_grad_elements(params, zero_fill):
    """How many gradient elements `params` communicate (their array sizes with
    `zero_fill`, else their gradients' sizes)."""
    if zero_fill:
        return sum(param.array.size for param in params)
    return sum(param.grad.size for param in params)


def get_device_memory_pointer(array):
    """A C-contiguous NumPy array with `array`'s values (`array` itself when it is
    one already): the buffer mpi4py reads and writes.

    Raises:
        ValueError: `array` is not a NumPy array (minichainer has no GPU backend).
    """
    if backend.get_array_module(array) is not numpy or not isinstance(array, numpy.ndarray):
        raise ValueError('get_device_memory_pointer: {} is from an unsupported array module '
                         '(minichainer supports NumPy arrays only)'.format(type(array)))
    return numpy.ascontiguousarray(array)


def array_to_buffer_object(array, mpi_dtype=None):
    """The buffer object of `array` for mpi4py's `Bcast`/`Allreduce` ...: for a
    NumPy array, the (contiguous) array itself, as ChainerMN returns; `mpi_dtype` is
    used by ChainerMN for GPU arrays only."""
    return get_device_memory_pointer(array)


class _CudaMemory:
    def __init__(self):
        raise RuntimeError('{}: needs CUDA, which minichainer does not have (CPU only)'
                           .format(type(self).__name__))


class HostPinnedMemory(_CudaMemory):
    """ChainerMN's page-locked host buffer (CUDA only): raises RuntimeError."""


class DeviceMemory(_CudaMemory):
    """ChainerMN's GPU buffer (CUDA only): raises RuntimeError."""
