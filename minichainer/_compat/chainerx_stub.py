"""The `chainerx` stand-in; it lives in `minichainer.backends._chainerx_stub` (the backend
layer builds it, below everything that imports the backend)."""
from minichainer.backends._chainerx_stub import get_module, is_available, make_module, ndarray  # noqa: F401,E501
