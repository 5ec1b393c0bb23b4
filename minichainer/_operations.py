"""The operations that the core's objects offer but the layers above define.

`Variable.reshape`, `.transpose`, `.T`, `v[i]`, `.mean`, `Variable.backward`, a variable's
memory layout and the old-style gradient sums are methods of the core's objects, while the
code that runs them lives in modules that import the core: `functions/`, the backward engine
(`_backprop.py`, `function_node.py`) and `memory_layouts.py`.  So that the core imports none
of them, each of those modules *registers* what it provides here when it is imported
(`register(name=function)`, the module's last lines), and the core calls
`operations.<name>(...)`: one attribute read, as cheap as the package look-up it replaces.

| Name | Registered by |
|---|---|
| `reshape`, `transpose`, `average`, `get_item`, `add` | `functions/__init__.py` |
| `backward` (`_backprop.backward_from_variable`) | `_backprop.py` |
| `enable_memory_layouts` | `function_node.py` |
| `as_layout_node`, `transpose_shape`, `transpose_array` | `memory_layouts.py` |

A name read before its module was imported calls the *loader* once, which imports the
providers; the package's `__init__` sets it (`set_loader`), so that `import minichainer`
stays cheap and `Variable(x).reshape(2, 3)` works in a program that never imported
`minichainer.functions`.  This module imports nothing from minichainer.
"""
import threading


class Operations:
    """The registered operations, as attributes (see the module's table)."""

    def __getattr__(self, name):
        # Reached only for a name not registered yet: load the providers once.
        if name.startswith('__') or not load():
            raise AttributeError(_missing(name))
        try:
            return self.__dict__[name]
        except KeyError:
            raise AttributeError(_missing(name)) from None


def _missing(name):
    return ('no operation {!r} is registered in minichainer._operations (it is provided by '
            'minichainer.functions, the backward engine or minichainer.memory_layouts when '
            'they are imported)'.format(name))


operations = Operations()
_state = {'loader': None, 'loading': False}
_lock = threading.RLock()  # another thread waits for a load under way, as for an import


def register(**functions):
    """Register operations under their names (a module above the core, at its import)."""
    operations.__dict__.update(functions)


def set_loader(loader):
    """Set the callable that imports the modules registering the operations."""
    _state['loader'] = loader


def load():
    """Call the loader (not from inside it); True if it was called."""
    loader = _state['loader']
    if loader is None:
        return False
    with _lock:
        if _state['loading']:  # the loading thread itself, from inside an import
            return False
        _state['loading'] = True
        try:
            loader()
        finally:
            _state['loading'] = False
    return True
