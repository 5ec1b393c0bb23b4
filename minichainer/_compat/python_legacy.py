"""Legacy mode, Python part: the `collections` ABC aliases Python 3.10 removed.

Chainer-era code writes `collections.Iterable`, `collections.Mapping`, ... (ChainerRL's
`recurrent.unchain_backward`, which its A3C, ACER, NSQ and PCL agents call on every
update). Those were aliases of `collections.abc` until Python 3.9 and are gone since
3.10, so such a program stops with `AttributeError` on any current Python, under Chainer
as under minichainer. The runner's legacy mode (the one that restores NumPy's removed
names, on by default) gives them back: `collections` gets a module `__getattr__`
(PEP 562) that serves each removed name as the `collections.abc` class it was, with one
warning naming the replacement, and then makes it a plain attribute.
"""
import collections
import collections.abc
import sys
import threading

from minichainer._compat.numpy_legacy import _announce_message

# The names `collections` forwarded to `collections.abc` until Python 3.9.
REMOVED_IN_3_10 = (
    'Awaitable', 'Coroutine', 'AsyncIterable', 'AsyncIterator', 'AsyncGenerator',
    'Hashable', 'Iterable', 'Iterator', 'Generator', 'Reversible', 'Sized', 'Container',
    'Callable', 'Collection', 'Set', 'MutableSet', 'Mapping', 'MutableMapping',
    'MappingView', 'KeysView', 'ItemsView', 'ValuesView', 'Sequence', 'MutableSequence',
    'ByteString')



class PythonLegacyWarning(FutureWarning):
    """A name removed from Python's standard library was used and served by the legacy
    mode (shown once per name, never raised, like `NumpyLegacyWarning`)."""


_lock = threading.Lock()
_state = {}   # while installed: the names restored, `collections`' own __getattr__ (or None)


def _make_getattr(original, restored):
    def __getattr__(name):
        if name not in restored:
            if original is None:
                raise AttributeError(
                    "module 'collections' has no attribute {!r}".format(name))
            return original(name)
        value = getattr(collections.abc, name)
        setattr(collections, name, value)   # from now on a plain attribute, no warning
        _announce_message(
            'collections.{0} was removed in Python 3.10; minichainer\'s legacy mode '
            'restores it. Use collections.abc.{0} instead.'.format(name), sys._getframe(1),
            PythonLegacyWarning)
        return value
    return __getattr__


def install():
    """Serve the removed names the running Python's `collections` lacks. Idempotent;
    returns the sorted list of names served."""
    with _lock:
        if not _state:
            names = vars(collections)
            restored = frozenset(n for n in REMOVED_IN_3_10
                                 if n not in names and hasattr(collections.abc, n))
            original = names.get('__getattr__')
            if restored:
                collections.__getattr__ = _make_getattr(original, restored)
            _state.update(restored=restored, original=original)
        return sorted(_state['restored'])


def uninstall():
    """Undo `install`: the restored names are gone again."""
    with _lock:
        if not _state:
            return
        names = vars(collections)
        for name in _state['restored']:
            names.pop(name, None)
        if _state['restored']:
            if _state['original'] is None:
                names.pop('__getattr__', None)
            else:
                collections.__getattr__ = _state['original']
        _state.clear()
