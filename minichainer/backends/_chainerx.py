"""ChainerX backend stand-in (`chainer.backends._chainerx`): ChainerX is not available."""
from minichainer import _backend


def _no_chainerx(what):
    return RuntimeError(
        '{}: ChainerX is not available in minichainer (chainerx.is_available() is False); '
        "keep arrays on the '@numpy' device".format(what))


class ChainerxDevice(_backend.Device):
    """The ChainerX device type; cannot be created here."""

    def __init__(self, device):
        raise _no_chainerx('ChainerxDevice({!r})'.format(device))

    @staticmethod
    def from_array(array):
        return None

    @staticmethod
    def from_fallback_device(device):
        raise _no_chainerx('ChainerxDevice.from_fallback_device')

    def __eq__(self, other):
        return False


def to_chx(array):
    """Raise `RuntimeError`: ChainerX arrays cannot be made here."""
    raise _no_chainerx('to_chx')


def from_chx(array):
    """Return `array` unchanged (nothing ever lives on ChainerX here)."""
    return array
