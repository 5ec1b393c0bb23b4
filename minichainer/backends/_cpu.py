"""The NumPy device (``chainer.backends._cpu``)."""
import numpy

from minichainer import _backend


class CpuDevice(_backend.Device):
    """The CPU, where arrays are ``numpy.ndarray``. Its name is ``'@numpy'``."""

    xp = numpy
    name = '@numpy'
    supported_array_types = (numpy.ndarray,)

    def __eq__(self, other):
        return isinstance(other, CpuDevice)

    def __hash__(self):
        return hash('@numpy')

    def send_array(self, array):
        if isinstance(array, numpy.ndarray):
            return array
        if numpy.isscalar(array):
            return numpy.asarray(array)
        to_cpu = getattr(array, 'get', None)  # a CuPy-like array
        if to_cpu is not None:
            return to_cpu()
        return numpy.asarray(array)

    @staticmethod
    def from_array(array):
        if isinstance(array, (numpy.ndarray, numpy.generic)):
            return CpuDevice()
        return None

    @staticmethod
    def from_current_device():
        return CpuDevice()


def _to_cpu(array):
    if array is None or isinstance(array, numpy.ndarray):
        return array
    return CpuDevice().send_array(array)
