"""The ``Device`` base class (``chainer._backend.Device``)."""


class Device:
    """A device that arrays live on. Subclasses give ``xp`` and ``send_array``."""

    xp = None
    name = None
    supported_array_types = ()

    def __enter__(self):
        raise RuntimeError(
            'Device class does not support runtime context using `with` statement. '
            'Use chainer.using_device instead.')

    def __exit__(self, exc_type, exc_value, traceback):
        pass

    def __eq__(self, other):
        raise NotImplementedError

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return hash(self.name)

    def __str__(self):
        return self.name

    def __repr__(self):
        return '<{} ({})>'.format(type(self).__name__, self.name)

    def create_context(self):
        import contextlib
        return contextlib.nullcontext()

    def send(self, arrays):
        """Transfer an array, or a (nested) tuple/list/dict of arrays, to this device."""
        from minichainer.backend import _convert_arrays
        return _convert_arrays(arrays, self.send_array)

    def send_array(self, array):
        raise NotImplementedError

    def use(self):
        pass

    def is_array_supported(self, array):
        return isinstance(array, self.supported_array_types)
