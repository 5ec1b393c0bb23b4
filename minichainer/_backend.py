"""The `Device` base class and array-tree conversion (`chainer._backend`)."""


def convert_arrays(array, func):
    """Apply `func` to an array, or to each array of a list/tuple/dict (recursively).

    `None` stays `None`; an object appearing several times in one container is
    converted once (the results are the same object), as in Chainer. Chainer converts
    lists and tuples only; minichainer also walks dicts and nested containers.
    """
    if isinstance(array, (list, tuple)):
        seen = {}
        converted = []
        for a in array:
            if a is None:
                converted.append(None)
                continue
            key = id(a)
            out = seen.get(key)
            if out is None:
                out = convert_arrays(a, func)
                seen[key] = out
            converted.append(out)
        return converted if type(array) is list else (
            tuple(converted) if type(array) is tuple else type(array)(converted))
    if isinstance(array, dict):
        return {k: convert_arrays(v, func) for k, v in array.items()}
    if array is None:
        return None
    return func(array)


_convert_arrays = convert_arrays  # Chainer's name


class _DummyContext:
    __slots__ = ()

    def __enter__(self):
        pass

    def __exit__(self, typ, value, traceback):
        pass


_dummy_context = _DummyContext()


class Device:
    """Base class of devices (`chainer.backend.Device`).

    Subclasses define `xp`, `name`, `supported_array_types`, `__eq__` and
    `send_array`. `str(device)` is its name, e.g. `'@numpy'`.
    """

    @property
    def xp(self):
        """Array module of the device."""
        raise NotImplementedError('Device implementation must override this property.')

    @property
    def name(self):
        """Unique name of the device (its device specifier)."""
        raise NotImplementedError('Device implementation must override this property.')

    @property
    def supported_array_types(self):
        """Tuple of the array types the device's array module handles."""
        raise NotImplementedError('Device implementation must override this property.')

    def __str__(self):
        return self.name

    def __enter__(self):
        raise RuntimeError(
            'Device class does not support runtime context using `with` statement. '
            'Use chainer.using_device instead.')

    def __exit__(self, exc_type, exc_value, traceback):
        pass

    def __eq__(self, other):
        raise NotImplementedError('Device implementation must override this method.')

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return hash(self.name)

    def create_context(self):
        """Return a context manager making this device current (a no-op context here)."""
        return _dummy_context

    def send(self, arrays):
        """Transfer an array, or a (nested) list/tuple/dict of arrays, to this device."""
        return convert_arrays(arrays, self.send_array)

    def send_array(self, array):
        """Transfer one array to this device."""
        raise NotImplementedError('Device implementation must override send_array.')

    def use(self):
        """Make the device current in this thread (nothing to do for the CPU)."""
        pass

    def is_array_supported(self, array):
        """True when `array` is of a type this device handles."""
        return isinstance(array, self.supported_array_types)
