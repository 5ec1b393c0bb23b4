"""`cupyx.scipy` of the CuPy test double (only `special`)."""
from . import special  # noqa: F401
