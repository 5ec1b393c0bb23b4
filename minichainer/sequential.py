"""`Sequential`: a ChainList whose forward calls its layers one after another."""
import copy as copy_module
import inspect

from minichainer import link as link_module


class Sequential(link_module.ChainList):
    """A model that applies its layers in order: `y = layers[-1](...layers[0](x))`.

    Layers are any callables (Links, functions such as `F.relu`, `functools.partial`
    objects...). Only the Links among them are children, named `'0'`, `'1'`, ... by
    their position in the child list, which gives the npz keys and the `params()` order.
    A layer returning a tuple passes it to the next layer as positional arguments.
    Indexing (`seq[i]`), `len`, iteration, `+`, `+=`, `append`, `insert`,
    `pop`, `remove` etc. act on the layer list.

    The child list is maintained exactly as Chainer 7 does, including its quirk: a Link
    inserted at position `i > 0` goes into the child list right after the *first* Link
    found before `i` (so `Sequential(A, B, C)` has children `[A, C, B]` and saves C
    under `'1'`). Keeping this makes npz files interchangeable with Chainer 7.

    Args:
        layers: The layers, in order.
    """

    def __init__(self, *layers):
        super().__init__()
        self._layers = []
        for layer in layers:
            self.append(layer)

    def _rename_children(self):
        for i, child in enumerate(self._children):
            child.name = str(i)
        link_module.bump_structure_version()

    def __len__(self):
        return len(self._layers)

    def __getitem__(self, i):
        return self._layers[i]

    def __setitem__(self, i, layer):
        if not isinstance(i, int):
            raise TypeError('Sequential indices must be integers, not {}'.format(
                type(i).__name__))
        if i >= len(self._layers):
            raise ValueError('Sequential: index {} should be less than {}'.format(
                i, len(self._layers)))
        if not callable(layer):
            raise ValueError(
                'Sequential: every layer must be callable, got {!r}'.format(layer))
        if self._layers[i] is not layer:
            del self[i]
            self.insert(i, layer)

    def __delitem__(self, i):
        layer = self._layers.pop(i)
        if isinstance(layer, link_module.Link):
            for pos, child in enumerate(self._children):
                if child.name == layer.name:
                    del self._children[pos]
                    break
            self._rename_children()

    def __iter__(self):
        return iter(self._layers)

    def __reversed__(self):
        return reversed(self._layers)

    def __contains__(self, item):
        return item in self._layers

    def __add__(self, other):
        if not isinstance(other, Sequential):
            raise ValueError(
                'Sequential: + supports only Sequential objects, got {}'.format(type(other)))
        ret = Sequential()
        for layer in self:
            ret.append(layer)
        for layer in other:
            ret.append(layer)
        return ret

    def __iadd__(self, other):
        if not isinstance(other, Sequential):
            raise ValueError(
                'Sequential: += supports only Sequential objects, got {}'.format(type(other)))
        for layer in list(other):
            self.append(layer)
        return self

    def forward(self, *x):
        """Apply the layers in order to `x` and return the last output.

        Raises:
            RuntimeError: the Sequential has no layer.
        """
        if not self._layers:
            raise RuntimeError('Sequential does not have any layer.')
        for layer in self._layers:
            if isinstance(x, tuple):
                x = layer(*x)
            else:
                x = layer(x)
        return x

    def __reduce__(self):
        for layer in self._layers:
            if getattr(layer, '__name__', None) == '<lambda>':
                raise ValueError(
                    'This Sequential contains a lambda function, which cannot be pickled; '
                    'use functools.partial instead of the lambda')
        return super().__reduce__()

    def __str__(self):
        lines = []
        for index, layer in enumerate(self._layers):
            if getattr(layer, '__name__', None) == '<lambda>':
                try:
                    rep = inspect.getsource(layer).strip().rstrip(',')
                except (OSError, TypeError):
                    rep = repr(layer)
            else:
                rep = str(layer)
            rep = '({}): {},'.format(index, rep)
            lines.extend('  {}\n'.format(line) for line in rep.splitlines())
        body = ''.join(lines)
        return '{}({})'.format(type(self).__name__, '\n' + body if body else '')

    def append(self, layer):
        """Add `layer` at the end."""
        self.insert(len(self._layers), layer)

    def extend(self, sequential):
        """Append every layer of `sequential`."""
        for layer in list(sequential):
            self.append(layer)

    def insert(self, i, layer):
        """Insert `layer` before position `i`.

        Raises:
            IndexError: `i` is outside `[-len(self), len(self)]` (as in Chainer, unlike
                `list.insert`).
            ValueError: `layer` is not callable.
        """
        n = len(self._layers)
        if not -n <= i <= n:
            raise IndexError('Sequential.insert: index out of range: {} (the sequence has '
                             '{} layers)'.format(i, n))
        if i < 0:
            i += n
        if not callable(layer):
            raise ValueError(
                'Sequential: every layer must be callable, got {!r}'.format(layer))
        self._layers.insert(i, layer)
        if isinstance(layer, link_module.Link):
            if i == 0:
                self._children.insert(0, layer)
            else:
                # Chainer 7 places the link after the first link before i (see class doc).
                pos = 0
                for j in range(i - 1, -1, -1):
                    if isinstance(self._layers[j], link_module.Link):
                        pos = j
                self._children.insert(pos + 1, layer)
            self._rename_children()

    def remove(self, layer):
        """Remove the first occurrence of `layer`.

        Raises:
            ValueError: `layer` is not in the Sequential.
        """
        if layer not in self._layers:
            raise ValueError('Sequential.remove: {!r} is not a layer'.format(layer))
        del self[self._layers.index(layer)]

    def remove_by_layer_type(self, type_name):
        """Remove every layer whose class name (Links) or `__name__` is `type_name`."""
        for layer in [x for x in self._layers if _layer_type_name(x) == type_name]:
            self.remove(layer)

    def pop(self, i=-1):
        """Remove and return the layer at `i`."""
        layer = self._layers[i]
        del self[i]
        return layer

    def clear(self):
        """Remove all layers (Chainer 7 leaves every other child registered; all go here)."""
        self._layers = []
        self._children = []
        link_module.bump_structure_version()

    def index(self, layer, start=None, end=None):
        """Position of `layer`."""
        return self._layers[start:end].index(layer)

    def count(self, layer):
        """Number of occurrences of `layer`."""
        return self._layers.count(layer)

    def count_by_layer_type(self, type_name):
        """Number of layers whose class name (Links) or `__name__` is `type_name`."""
        return sum(1 for x in self._layers if _layer_type_name(x) == type_name)

    def copy(self, mode='share'):
        """A new Sequential with each Link copied by `mode` and other layers shallow-copied."""
        if mode not in ('init', 'copy', 'share'):
            raise ValueError(
                "Sequential.copy: mode must be 'init', 'copy' or 'share', got {!r}".format(
                    mode))
        ret = Sequential()
        for layer in self._layers:
            if isinstance(layer, link_module.Link):
                ret.append(layer.copy(mode))
            else:
                ret.append(copy_module.copy(layer))
        return ret

    def copyparams(self, link, copy_persistent=True):
        """Copy the parameters of the Links of `link` (a Sequential with the same
        layers) into this one's Links, layer by layer.

        Raises:
            ValueError: `link` is not a Sequential.
        """
        if not isinstance(link, Sequential):
            raise ValueError('Sequential.copyparams: only a Sequential can be copied into '
                             'a Sequential, got {}'.format(type(link).__name__))
        for idx, child in enumerate(self._layers):
            if isinstance(child, link_module.Link):
                child.copyparams(link[idx], copy_persistent)

    def flatten(self):
        """A Sequential with nested Sequentials expanded into their layers."""
        ret = Sequential()
        for layer in self._layers:
            if isinstance(layer, Sequential):
                ret.extend(layer.flatten())
            else:
                ret.append(layer)
        return ret


def _layer_type_name(layer):
    if isinstance(layer, link_module.Link):
        return type(layer).__name__
    return getattr(layer, '__name__', type(layer).__name__)
