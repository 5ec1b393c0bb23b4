"""iDeep backend stand-in (`chainer.backends.intel64`): never available here."""
from minichainer import _backend

ideep = None
_ideep_version = None


class mdarray:
    """Dummy `ideep4py.mdarray` type: no object is ever an instance (for type tests)."""

    def __init__(self, *args, **kwargs):
        raise RuntimeError('intel64.mdarray: iDeep is not available in minichainer')


class Intel64Device(_backend.Device):
    """The iDeep device type; cannot be created here (no iDeep backend)."""

    def __init__(self):
        check_ideep_available()

    @staticmethod
    def from_array(array):
        """Return None: no array is an iDeep array here."""
        return None

    def __eq__(self, other):
        return False


def is_ideep_available():
    """False: iDeep is never available."""
    return False


def check_ideep_available():
    """Raise `RuntimeError`: iDeep is not available."""
    raise RuntimeError("iDeep is not available in minichainer (the '@intel64' device and "
                       "use_ideep are not supported); use '@numpy'")


def should_use_ideep(level):
    """False: iDeep is never used."""
    return False


def inputs_all_ready(inputs, supported_ndim=(2, 4)):
    """False: no input is ever ready for iDeep."""
    return False
