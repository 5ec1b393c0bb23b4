"""Backends (`chainer.backends`): the CPU (NumPy) and `cuda` (CuPy, resolved lazily where
it can really be used); `intel64` and `_chainerx` are stand-ins that report the missing
backend clearly."""
from minichainer.backends import _chainerx  # noqa: F401
from minichainer.backends import _cpu  # noqa: F401
from minichainer.backends import cuda  # noqa: F401
from minichainer.backends import intel64  # noqa: F401
