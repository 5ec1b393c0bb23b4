"""Backends (`chainer.backends`). Only the CPU (NumPy) backend is available; `cuda`,
`intel64` and `_chainerx` are stand-ins that report the missing backend clearly."""
from minichainer.backends import _chainerx  # noqa: F401
from minichainer.backends import _cpu  # noqa: F401
from minichainer.backends import cuda  # noqa: F401
from minichainer.backends import intel64  # noqa: F401
