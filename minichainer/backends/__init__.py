"""Backends (``chainer.backends``). Only the CPU (NumPy) backend is available."""
from minichainer.backends import _cpu  # noqa: F401
from minichainer.backends import cuda  # noqa: F401
from minichainer.backends import intel64  # noqa: F401
