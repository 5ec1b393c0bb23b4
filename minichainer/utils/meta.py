"""`chainer.utils.final` / `enable_final`: methods that subclasses must not override."""
import warnings

_ACTION_ATTR = '_minichainer_final_action'


def final(*args, **kwargs):
    """Declare a method final: overriding it in a subclass raises or warns.

    Use as `@final` (overriding raises `TypeError`) or `@final(action=X)`
    where `X` is an exception class (raised) or a warning class (warned). The
    class defining the method must derive from a class returned by
    `enable_final`.
    """
    def mark(method, action=TypeError):
        if not callable(method):
            raise TypeError('final: expected a method, got {}'.format(
                type(method).__name__))
        if not (isinstance(action, type) and issubclass(action, (Exception, Warning))):
            raise TypeError('final: action must be an Exception or Warning class, got '
                            '{!r}'.format(action))
        setattr(method, _ACTION_ATTR, action)
        return method

    if len(args) == 1 and not kwargs:  # used bare: @final
        return mark(args[0])
    if args:
        raise TypeError('final: use @final or @final(action=...), got positional '
                        'arguments {!r}'.format(args))
    return lambda method: mark(method, **kwargs)


class _EnableFinal(type):
    """Metaclass checking, at class creation, that no final method is overridden."""

    def __new__(mcs, name, bases, namespace):
        for attr in namespace:
            for base in bases:
                action = getattr(getattr(base, attr, None), _ACTION_ATTR, None)
                if action is None:
                    continue
                if issubclass(action, Warning):
                    warnings.warn('Overriding method {!r}.'.format(attr), action)
                else:
                    raise action('method {!r} is final.'.format(attr))
        return super().__new__(mcs, name, bases, namespace)


def enable_final(base=(), meta_base=()):
    """A base class under which `final` methods are enforced.

    Args:
        base (type or tuple of types): Base classes of the returned class.
        meta_base (type or tuple of types): Extra metaclasses to combine with the
            checking metaclass (to avoid metaclass conflicts with `base`).
    """
    if not isinstance(base, (list, tuple)):
        base = (base,)
    if not isinstance(meta_base, (list, tuple)):
        meta_base = (meta_base,)
    metaclass = type('base_metaclass', (_EnableFinal,) + tuple(meta_base), {})
    return metaclass('EnableFinalBase', tuple(base), {})
