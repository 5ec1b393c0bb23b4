"""Serializer base classes (`chainer.serializer`).

An object takes part in serialization by defining `serialize(serializer)`, in which it
calls `serializer(key, value)` for each value and `serializer[name]` to descend into a
child object. A `Serializer` stores the value and returns it; a
`Deserializer` returns the loaded value (copying into `value` in place when it is
an array), so `self.x = serializer('x', self.x)` works in both directions.
"""


class AbstractSerializer:
    """Base class of serializers and deserializers."""

    def __getitem__(self, key):
        """Return a child serializer for the object at `key` (a path component)."""
        raise NotImplementedError

    def __call__(self, key, value):
        """Save or load the value named `key`; return the (loaded) value."""
        raise NotImplementedError


class Serializer(AbstractSerializer):
    """Base class of serializers (writers)."""

    def save(self, obj):
        """Save `obj` by calling `obj.serialize(self)`."""
        obj.serialize(self)


class Deserializer(AbstractSerializer):
    """Base class of deserializers (readers)."""

    def load(self, obj):
        """Load `obj` by calling `obj.serialize(self)`."""
        obj.serialize(self)
