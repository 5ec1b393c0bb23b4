"""Runtime information (`chainer._runtime_info`): platform and library versions."""
import io
import platform
import sys

import numpy

import minichainer


class _RuntimeInfo:
    """Versions of the platform, Chainer (minichainer), NumPy and, where it can be used,
    CuPy (`cupyx.get_runtime_info()`, as Chainer); no iDeep/ChainerX."""

    cuda_info = None
    ideep_version = None
    chainerx_available = False

    def __init__(self):
        from minichainer.backends import cuda
        self.chainer_version = minichainer.__version__
        self.minichainer_version = minichainer.minichainer_version
        self.numpy_version = numpy.__version__
        self.platform_version = platform.platform()
        if cuda.available:  # resolves CuPy: asked for explicitly
            self.cuda_info = cuda.cupyx.get_runtime_info()

    def __str__(self):
        out = io.StringIO()
        out.write('Platform: {}\n'.format(self.platform_version))
        out.write('Chainer: {} (minichainer {})\n'.format(self.chainer_version,
                                                         self.minichainer_version))
        out.write('ChainerX: Not Available\n')
        out.write('NumPy: {}\n'.format(self.numpy_version))
        if self.cuda_info is None:
            out.write('CuPy: Not Available\n')
        else:
            out.write('CuPy:\n')
            for line in str(self.cuda_info).splitlines():
                out.write('  {}\n'.format(line))
        out.write('iDeep: Not Available\n')
        return out.getvalue()


def _get_runtime_info():
    return _RuntimeInfo()


def print_runtime_info(out=None):
    """Write the runtime information to `out` (default: `sys.stdout`)."""
    if out is None:
        out = sys.stdout
    out.write(str(_get_runtime_info()))
    if hasattr(out, 'flush'):
        out.flush()
