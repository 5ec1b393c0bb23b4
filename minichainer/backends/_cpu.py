"""The NumPy device (`chainer.backends._cpu`)."""
import numpy

from minichainer import _backend


class CpuDevice(_backend.Device):
    """The CPU, where arrays are `numpy.ndarray`. Its name is `'@numpy'`."""

    xp = numpy
    name = '@numpy'
    supported_array_types = (numpy.ndarray,)

    def __eq__(self, other):
        return isinstance(other, CpuDevice)

    def __hash__(self):
        return hash('@numpy')

    def __repr__(self):
        return '<CpuDevice (numpy)>'

    def __str__(self):
        return '@numpy'

    def send_array(self, array):
        return array_to_cpu(array)

    @staticmethod
    def from_array(array):
        """Return a CpuDevice when `array` is a NumPy array, else None."""
        if isinstance(array, numpy.ndarray):
            return CpuDevice()
        return None

    @staticmethod
    def from_current_device():
        return CpuDevice()


def array_to_cpu(array):
    if array is None or isinstance(array, numpy.ndarray):
        return array
    if isinstance(array, (numpy.number, numpy.bool_)) or numpy.isscalar(array):
        return numpy.asarray(array)
    get = getattr(array, 'get', None)  # a CuPy-like array
    if get is not None and hasattr(array, 'shape') and hasattr(array, 'dtype'):
        return get()
    if hasattr(array, '__array__'):
        return numpy.asarray(array)
    raise TypeError('Array cannot be converted into an numpy.ndarray\n'
                    'Actual type: {0}.'.format(type(array)))


def to_cpu(array):
    """Convert an array or a (nested) list/tuple of arrays to NumPy."""
    return _backend.convert_arrays(array, array_to_cpu)


# Chainer's names
_array_to_cpu = array_to_cpu
_to_cpu = to_cpu
