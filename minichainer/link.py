"""Link, Chain and ChainList: the building blocks of models (`chainer.link`).

Registration works as in Chainer 7: a [`Parameter`][minichainer.variable.Parameter] (and, for a
[`Chain`][minichainer.link.Chain], a [`Link`][minichainer.link.Link]) assigned to an attribute
*inside* `with self.init_scope():` is registered; **assigning one outside `init_scope()` does not
register it** (it is then a plain attribute: not returned by `params()`, not saved,
not updated by optimizers).

`params()`/`namedparams()` walk the hierarchy in Chainer's order (own parameters
sorted by name, then children sorted by name, or by index in a ChainList), from a flat
table that is rebuilt only when some link's registrations change, so a call costs
O(number of parameters).
"""
import collections.abc
import contextlib
import copy as copy_module
import warnings

import numpy

from minichainer import backend
from minichainer import device_resident
from minichainer import function_hook as _function_hook
from minichainer import initializers
from minichainer import link_hook as _link_hook
from minichainer import variable

# Bumped on every registration change anywhere; flat parameter tables built at an older
# version are stale.
_structure_version = [0]

# Link subclass -> __call__ of a mixin class after Link in its MRO (or None).
_MIXIN_CALLS = {}


def bump_structure_version():
    _structure_version[0] += 1


def _is_shape(value):
    if value is None:
        return True
    if isinstance(value, collections.abc.Sequence):
        try:
            return all(int(x) for x in value) or True
        except (TypeError, ValueError):
            return False
    try:
        int(value)
        return True
    except (TypeError, ValueError):
        return False


def _ensure_shape_dtype(value):
    if _is_shape(value):
        return value, numpy.float32
    return value


class Link(device_resident.DeviceResident):
    """A building block of models: holds parameters and persistent values.

    Assign [`Parameter`][minichainer.variable.Parameter] objects to attributes inside
    `with self.init_scope():` to register them; register other values that must be
    saved (running statistics, counters) with
    [`add_persistent`][minichainer.link.Link.add_persistent] or
    [`register_persistent`][minichainer.link.Link.register_persistent]. Calling a link runs its
    `forward` method, with the registered link hooks around it.

    Args:
        params: (deprecated) names mapped to shapes or `(shape, dtype)` pairs of
            parameters to create, filled with NaN.

    Attributes:
        name (str): Name given by the parent chain, or None.
    """

    _local_link_hooks = None
    _init_done = False
    _np_cache = None

    def __init__(self, **params):
        super().__init__()
        self._params = set()
        self._persistent = set()
        self._within_init_scope = False
        self.name = None
        self._init_done = True
        for name, value in params.items():
            shape, dtype = _ensure_shape_dtype(value)
            self.add_param(name, shape, dtype=dtype)

    def _check_init_done(self):
        if not self._init_done:
            # Chainer's exact message (its tests match it); the constructor of the
            # subclass must call super().__init__() first.
            raise RuntimeError('Link.__init__() has not been called.')

    def __getstate__(self):
        state = self.__dict__.copy()
        state.pop('_np_cache', None)
        return state

    # ------------------------------------------------------------------ printing
    @property
    def printable_specs(self):
        """Generator of `(name, value)` pairs shown by `str(link)`."""
        if 0:
            yield

    def __str__(self):
        specs = ', '.join('{}={}'.format(k, v) for k, v in self.printable_specs)
        return '{}({})'.format(type(self).__name__, specs)

    # ------------------------------------------------------------------ hooks
    @property
    def local_link_hooks(self):
        """Ordered dict of the hooks registered on this link only."""
        if self._local_link_hooks is None:
            self._local_link_hooks = collections.OrderedDict()
        return self._local_link_hooks

    @property
    def _device_id(self):
        # Deprecated in Chainer (use ``device``); None means the CPU, else the GPU id.
        warnings.warn('Link._device_id is left only for backward compatibility and likely '
                      'to be removed. Use Link.device instead.', DeprecationWarning)
        device = self.device
        if isinstance(device, backend.GpuDevice):
            return device.device.id
        return None

    @property
    def _n_local_link_hooks(self):
        hooks = self._local_link_hooks
        return 0 if hooks is None else len(hooks)

    def add_hook(self, hook, name=None):
        """Register a `LinkHook` on this link. Returns self.

        Raises:
            TypeError: `hook` is not a LinkHook.
            KeyError: a hook with that name is already registered.
        """
        _function_hook.add_local_hook(self, self.local_link_hooks, hook, name,
                                      _link_hook.LinkHook)
        hook.added(self)
        return self

    def delete_hook(self, name):
        """Unregister the hook called `name`.

        Raises:
            KeyError: no such hook.
        """
        _function_hook.delete_local_hook(self, self.local_link_hooks, name).deleted(self)

    def _forward_method(self):
        # ``forward``, unless a class after Link in the MRO (a mixin) defines __call__:
        # that one is used instead, as in Chainer.
        cls = type(self)
        try:
            mixin_call = _MIXIN_CALLS[cls]
        except KeyError:
            mro = cls.__mro__
            mixin_call = None
            for klass in mro[mro.index(Link) + 1:]:
                if '__call__' in klass.__dict__:
                    mixin_call = klass.__dict__['__call__']
                    break
            _MIXIN_CALLS[cls] = mixin_call
        if mixin_call is not None:
            bind = getattr(type(mixin_call), '__get__', None)
            # a callable that is no descriptor (a mock, say) is called as it is
            return mixin_call if bind is None else bind(mixin_call, self, cls)
        return self.forward

    def __call__(self, *args, **kwargs):
        if not self._init_done:
            self._check_init_done()
        local_hooks = self._local_link_hooks
        if not local_hooks and not _link_hook.registered_hooks.value:
            return self._forward_method()(*args, **kwargs)
        global_hooks = _link_hook.get_link_hooks()
        if not global_hooks and not local_hooks:
            return self._forward_method()(*args, **kwargs)
        hooks = collections.OrderedDict(global_hooks)
        if local_hooks:
            hooks.update(local_hooks)
        hooks = list(hooks.values())
        pre = _link_hook.ForwardPreprocessCallbackArgs(self, 'forward', args, kwargs)
        for hook in hooks:
            hook.forward_preprocess(pre)
        out = self._forward_method()(*args, **kwargs)
        post = _link_hook.ForwardPostprocessCallbackArgs(self, 'forward', args, kwargs, out)
        for hook in hooks:
            hook.forward_postprocess(post)
        return out

    # ------------------------------------------------------------------ registration
    @property
    def within_init_scope(self):
        """True inside `with self.init_scope():`."""
        return getattr(self, '_within_init_scope', False)

    @contextlib.contextmanager
    def init_scope(self):
        """Context manager inside which assigned Parameters (and child Links) register."""
        self._check_init_done()
        old = self.within_init_scope
        self._within_init_scope = True
        try:
            yield
        finally:
            self._within_init_scope = old

    def __setattr__(self, name, value):
        attrs = self.__dict__
        if attrs.get('_within_init_scope') and isinstance(value, variable.Parameter):
            value.name = name
            self._params.add(name)
            self._persistent.discard(name)
            bump_structure_version()
        elif name in attrs.get('_params', ()):
            bump_structure_version()  # a registered parameter is replaced
        object.__setattr__(self, name, value)

    def __delattr__(self, name):
        self._params.discard(name)
        self._persistent.discard(name)
        bump_structure_version()
        object.__delattr__(self, name)

    def add_param(self, name, shape=None, dtype=numpy.float32, initializer=None):
        """Register a new parameter (deprecated style; prefer `init_scope`).

        Args:
            name (str): Attribute name.
            shape: Shape, or None to leave the parameter uninitialized.
            dtype: Dtype used when `initializer` is None (the data is filled with NaN).
            initializer: Initializer, array or scalar.

        Raises:
            AttributeError: the attribute already exists.
        """
        if name in self.__dict__:
            raise AttributeError(
                'cannot register a new parameter {}: attribute exists'.format(name))
        if initializer is None:
            initializer = initializers.NaN(dtype)
        param = variable.Parameter(initializer, shape)
        with self.init_scope():
            setattr(self, name, param)

    def add_persistent(self, name, value):
        """Register `value` as the persistent attribute `name` (saved, not trained).

        Raises:
            AttributeError: the attribute already exists.
        """
        d = self.__dict__
        if name in d:
            raise AttributeError(
                'cannot register a new persistent value {}: attribute exists'.format(name))
        self._persistent.add(name)
        self._params.discard(name)
        bump_structure_version()
        d[name] = value

    def register_persistent(self, name):
        """Register the existing attribute `name` as a persistent value.

        Raises:
            AttributeError: there is no such attribute.
        """
        if not hasattr(self, name):
            raise AttributeError(
                'cannot register non-existent attribute {} as a persistent value'.format(
                    name))
        self._persistent.add(name)
        self._params.discard(name)
        bump_structure_version()

    # ------------------------------------------------------------------ copying
    def _copy_self_share(self):
        # Shallow copy with fresh registration sets and shallow-copied own parameters.
        ret = copy_module.copy(self)
        ret._params = set(self._params)
        ret._persistent = set(self._persistent)
        ret.name = None
        d = ret.__dict__
        for name in ret._params:
            param = copy_module.copy(d[name])
            param.grad = None
            d[name] = param
        bump_structure_version()
        return ret

    @classmethod
    def from_params(cls, *args, **kwargs):
        """Build the link from given arrays (links that support it override this).

        Raises:
            NotImplementedError: this link does not implement `from_params`.
        """
        raise NotImplementedError('{} does not implement `from_params`.'.format(cls.__name__))

    def copy(self, mode='share'):
        """Copy the link hierarchy rooted here.

        Args:
            mode (str): `'share'` (new Link/Parameter objects sharing the arrays),
                `'copy'` (deep copy) or `'init'` (deep copy, then parameters are
                re-initialized with their initializers).

        Returns:
            Link: the copy (`name` is reset to None in mode `'share'`; deep copies
            keep it, as in Chainer).

        Raises:
            ValueError: unknown `mode`.
        """
        if mode == 'share':
            return self._copy_self_share()
        if mode == 'copy':
            ret = copy_module.deepcopy(self)
        elif mode == 'init':
            ret = copy_module.deepcopy(self)
            for param in ret.params(include_uninit=False):
                param.initialize(param.shape)
        else:
            raise ValueError(
                "{}.copy: mode must be 'init', 'copy' or 'share', got {!r}".format(
                    type(self).__name__, mode))
        bump_structure_version()
        return ret

    # ------------------------------------------------------------------ devices
    def device_resident_accept(self, visitor):
        super().device_resident_accept(visitor)
        d = self.__dict__
        for name in self._params:
            visitor.visit_variable(d[name])
        array_types = backend.get_array_types()  # NumPy, and CuPy while in use
        for name in self._persistent:
            value = d[name]
            if isinstance(value, array_types):
                d[name] = visitor.visit_array(value)

    # ------------------------------------------------------------------ traversal
    def _own_namedparams(self):
        d = self.__dict__
        return [('/' + name, d[name]) for name in sorted(self._params)]

    def _build_namedparams(self):
        return self._own_namedparams()

    def _namedparams_table(self):
        cache = self._np_cache
        version = _structure_version[0]
        if cache is None or cache[0] != version:
            table = tuple(self._build_namedparams())
            cache = (version, table, tuple(p for _, p in table))
            self.__dict__['_np_cache'] = cache
        return cache

    def params(self, include_uninit=True):
        """Iterate over all parameters of the hierarchy (Chainer's order).

        Args:
            include_uninit (bool): Also yield parameters whose data is not allocated yet.
        """
        params = self._namedparams_table()[2]
        if include_uninit:
            return iter(params)
        return (p for p in params if p.array is not None)

    def namedparams(self, include_uninit=True):
        """Iterate over `(path, parameter)` pairs, paths relative to this link
        (e.g. `'/l1/W'`)."""
        table = self._namedparams_table()[1]
        if include_uninit:
            return iter(table)
        return (item for item in table if item[1].array is not None)

    def links(self, skipself=False):
        """Iterate over all links of the hierarchy (this one first unless `skipself`)."""
        if not skipself:
            yield self

    def namedlinks(self, skipself=False):
        """Iterate over `(path, link)` pairs of the hierarchy (`'/'` is this link)."""
        if not skipself:
            yield '/', self

    def children(self):
        """Iterate over the direct child links."""
        if 0:
            yield

    # ------------------------------------------------------------------ parameters
    def copyparams(self, link, copy_persistent=True):
        """Copy parameter data (and persistent values) from `link`, which must have the
        same structure. Gradients are not copied."""
        src = link.__dict__
        dst = self.__dict__
        for name in self._params:
            dst[name].copydata(src[name])
        if copy_persistent:
            for name in self._persistent:
                d = dst[name]
                s = src[name]
                if isinstance(d, numpy.ndarray) and isinstance(s, numpy.ndarray):
                    numpy.copyto(d, s)
                elif isinstance(d, backend.get_array_types()) and isinstance(
                        s, backend.get_array_types()) and d.shape == s.shape:
                    backend.copyto(d, s)  # across the host and devices, as Chainer
                else:
                    dst[name] = copy_module.deepcopy(s)

    def cleargrads(self):
        """Set every parameter's gradient to None (call before each backward)."""
        for param in self._namedparams_table()[2]:
            param.cleargrad()

    def zerograds(self):
        """Fill every gradient with zeros (deprecated: use
        [`cleargrads`][minichainer.link.Link.cleargrads])."""
        warnings.warn('Link.zerograds is deprecated. Use Link.cleargrads instead.',
                      DeprecationWarning)
        for param in self.params():
            param.zerograd()

    def addgrads(self, link):
        """Add the gradients of `link` (same structure) to this link's gradients."""
        src = link.__dict__
        dst = self.__dict__
        for name in self._params:
            dst[name].addgrad(src[name])

    def enable_update(self):
        """Enable the update rule of every parameter."""
        for param in self.params():
            rule = param.update_rule
            if rule is not None:
                rule.enabled = True

    def disable_update(self):
        """Disable the update rule of every parameter (freeze the link)."""
        for param in self.params():
            rule = param.update_rule
            if rule is not None:
                rule.enabled = False

    @property
    def update_enabled(self):
        """True if at least one parameter has an enabled update rule."""
        for param in self.params():
            rule = param.update_rule
            if rule is not None and rule.enabled:
                return True
        return False

    def count_params(self):
        """Total number of scalars in the initialized parameters (warns on
        uninitialized ones)."""
        size = 0
        for name, param in self.namedparams():
            if param.array is None:
                warnings.warn(
                    "Parameter '{}' has not been initialized, so the resulting count will "
                    'not include the number of parameters in it.'.format(name))
                continue
            size += param.size
        return size

    def repeat(self, n_repeat, mode='init'):
        """Return a [`Sequential`][minichainer.sequential.Sequential] of `n_repeat` copies of this
        link.

        Args:
            n_repeat (int): Number of copies (<= 0 gives an empty Sequential).
            mode (str): `'init'`, `'copy'` or `'share'` (see [`copy`][minichainer.link.Link.copy]).
        """
        # sequential.py imports this module, so Sequential is imported here, at call time
        from minichainer.sequential import Sequential
        ret = Sequential()
        if n_repeat <= 0:
            return ret
        if mode not in ('init', 'copy', 'share'):
            raise ValueError(
                "{}.repeat: mode must be 'init', 'copy' or 'share', got {!r}".format(
                    type(self).__name__, mode))
        for _ in range(n_repeat):
            ret.append(self.copy(mode))
        return ret

    # ------------------------------------------------------------------ serialization
    def serialize(self, serializer):
        """Save or load parameters and persistent values through `serializer`.

        Each parameter is passed as `serializer(name, param.data)`; an uninitialized
        parameter is saved as None and, when loading, initialized with the stored shape.
        """
        d = self.__dict__
        for name in sorted(self._params):
            param = d[name]
            data = serializer(name, param.data)
            if param.data is None and data is not None:
                param.initialize(data.shape)
                if isinstance(param.data, numpy.ndarray):
                    param.data[...] = numpy.asarray(data)
                else:  # a parameter on a GPU
                    with backend.using_device(param.device):
                        param.data[...] = param.device.send(data)
        for name in sorted(self._persistent):
            d[name] = serializer(name, d[name])


class Chain(Link):
    """A link composed of named child links.

    Child links assigned to attributes inside `with self.init_scope():` are registered
    (their `name` is set); a link assigned outside `init_scope()` is **not** a child.

    Args:
        links: (older style) child links by name.
    """

    def __init__(self, **links):
        super().__init__()
        self._children = set()
        for name, link in links.items():
            self.add_link(name, link)

    def __str__(self):
        lines = []
        for child in self.children():
            rep = '({}): {},'.format(child.name, str(child))
            lines.extend('  {}\n'.format(line) for line in rep.splitlines())
        body = ''.join(lines)
        return '{}({})'.format(type(self).__name__, '\n' + body if body else '')

    def __getitem__(self, name):
        """Equivalent to `getattr(self, name)`."""
        return getattr(self, name)

    def __setattr__(self, name, value):
        if self.__dict__.get('_within_init_scope') and isinstance(value, Link):
            if hasattr(self, name):
                raise AttributeError(
                    'cannot register a new link {}: attribute exists'.format(name))
            value.name = name
            self._children.add(name)
            bump_structure_version()
        elif name in self.__dict__.get('_children', ()):
            bump_structure_version()  # a registered child is replaced
        super().__setattr__(name, value)

    def __delattr__(self, name):
        self._children.discard(name)
        super().__delattr__(name)

    def add_link(self, name, link):
        """Register `link` as the child `name`.

        Raises:
            AttributeError: the attribute already exists.
            TypeError: `link` is not a Link.
        """
        if name in self.__dict__:
            raise AttributeError(
                'cannot register a new link {}: attribute exists'.format(name))
        if not isinstance(link, Link):
            raise TypeError('{}.add_link: link must be a Link, got {}'.format(
                type(self).__name__, type(link).__name__))
        with self.init_scope():
            setattr(self, name, link)

    def copy(self, mode='share'):
        if mode not in ('init', 'copy', 'share'):
            raise ValueError(
                "{}.copy: mode must be 'init', 'copy' or 'share', got {!r}".format(
                    type(self).__name__, mode))
        # As Chainer 7: the chain itself is copied with ``mode`` (in 'init' mode all
        # parameters below are re-initialized), then each child is copied again with
        # ``mode`` (sorted by name here; Chainer uses set order).
        ret = Link.copy(self, mode)
        ret._children = set(ret._children)
        d = ret.__dict__
        for name in sorted(ret._children):
            copied = d[name].copy(mode)
            copied.name = name
            d[name] = copied
        bump_structure_version()
        return ret

    def device_resident_accept(self, visitor):
        super().device_resident_accept(visitor)
        d = self.__dict__
        for name in sorted(self._children):
            d[name].device_resident_accept(visitor)

    def _build_namedparams(self):
        table = self._own_namedparams()
        d = self.__dict__
        for name in sorted(self._children):
            prefix = '/' + name
            table.extend((prefix + path, p) for path, p in d[name].namedparams())
        return table

    def links(self, skipself=False):
        if not skipself:
            yield self
        d = self.__dict__
        for name in sorted(self._children):
            yield from d[name].links()

    def namedlinks(self, skipself=False):
        if not skipself:
            yield '/', self
        d = self.__dict__
        for name in sorted(self._children):
            child = d[name]
            prefix = '/' + name
            yield prefix, child
            for path, link in child.namedlinks(True):
                yield prefix + path, link

    def children(self):
        d = self.__dict__
        for name in sorted(self._children):
            yield d[name]

    def copyparams(self, link, copy_persistent=True):
        super().copyparams(link, copy_persistent)
        src = link.__dict__
        dst = self.__dict__
        for name in self._children:
            dst[name].copyparams(src[name], copy_persistent)

    def addgrads(self, link):
        super().addgrads(link)
        src = link.__dict__
        dst = self.__dict__
        for name in self._children:
            dst[name].addgrads(src[name])

    def serialize(self, serializer):
        super().serialize(serializer)
        d = self.__dict__
        for name in sorted(self._children):
            d[name].serialize(serializer[name])


class ChainList(Link, collections.abc.MutableSequence):
    """A link composed of a list of child links, named `'0'`, `'1'`, ...

    Supports the list API (`append`, `insert`, `pop`, indexing and slicing).
    Registering links with `init_scope()` is not allowed (use
    [`add_link`][minichainer.link.ChainList.add_link]).
    """

    def __init__(self, *links):
        super().__init__()
        self._children = []
        for link in links:
            self.add_link(link)

    def __str__(self):
        lines = []
        for index, child in enumerate(self._children):
            rep = '({}): {},'.format(index, str(child))
            lines.extend('  {}\n'.format(line) for line in rep.splitlines())
        body = ''.join(lines)
        return '{}({})'.format(type(self).__name__, '\n' + body if body else '')

    def __setattr__(self, name, value):
        if self.__dict__.get('_within_init_scope') and isinstance(value, Link):
            raise TypeError(
                'cannot register a new link within a "with chainlist.init_scope():" block; '
                'use ChainList.add_link or append')
        super().__setattr__(name, value)

    def _renumber(self):
        for i, child in enumerate(self._children):
            child.name = str(i)
        bump_structure_version()

    def __setitem__(self, index, value):
        if isinstance(index, int):
            if not isinstance(value, Link):
                raise TypeError('ChainList: only Links can be stored, got {}'.format(
                    type(value).__name__))
            self._children[index] = value
        elif isinstance(index, slice):
            value = list(value)
            for v in value:
                if not isinstance(v, Link):
                    raise TypeError('ChainList: only Links can be stored, got {}'.format(
                        type(v).__name__))
            self._children[index] = value
        else:
            raise TypeError('ChainList indices must be integers or slices, not {}'.format(
                type(index).__name__))
        self._renumber()

    def __getitem__(self, index):
        """The child at `index` (or a list of children for a slice)."""
        return self._children[index]

    def __delitem__(self, index):
        del self._children[index]
        self._renumber()

    def insert(self, index, link):
        """Insert `link` before `index`.

        Raises:
            TypeError: `link` is not a Link.
        """
        if not isinstance(link, Link):
            raise TypeError('ChainList.insert: link must be a Link, got {}'.format(
                type(link).__name__))
        self._children.insert(index, link)
        self._renumber()

    def __iter__(self):
        return iter(self._children)

    def __len__(self):
        return len(self._children)

    def add_link(self, link):
        """Append `link` as the last child."""
        self.append(link)

    def copy(self, mode='share'):
        if mode not in ('init', 'copy', 'share'):
            raise ValueError(
                "{}.copy: mode must be 'init', 'copy' or 'share', got {!r}".format(
                    type(self).__name__, mode))
        # As Chainer 7: the list itself is copied in 'share' mode (its own parameters are
        # shared), the children with ``mode``.
        ret = Link.copy(self, 'share')
        children = [child.copy(mode) for child in self._children]
        for i, child in enumerate(children):
            child.name = str(i)
        ret._children = children
        bump_structure_version()
        return ret

    def device_resident_accept(self, visitor):
        super().device_resident_accept(visitor)
        for link in self._children:
            link.device_resident_accept(visitor)

    def _build_namedparams(self):
        table = self._own_namedparams()
        for idx, link in enumerate(self._children):
            prefix = '/%d' % idx
            table.extend((prefix + path, p) for path, p in link.namedparams())
        return table

    def links(self, skipself=False):
        if not skipself:
            yield self
        for child in self._children:
            yield from child.links()

    def namedlinks(self, skipself=False):
        if not skipself:
            yield '/', self
        for idx, child in enumerate(self._children):
            prefix = '/%d' % idx
            yield prefix, child
            for path, link in child.namedlinks(True):
                yield prefix + path, link

    def children(self):
        yield from self._children

    def copyparams(self, link, copy_persistent=True):
        super().copyparams(link, copy_persistent)
        others = link._children
        for idx, child in enumerate(self._children):
            child.copyparams(others[idx], copy_persistent)

    def addgrads(self, link):
        super().addgrads(link)
        others = link._children
        for idx, child in enumerate(self._children):
            child.addgrads(others[idx])

    def serialize(self, serializer):
        super().serialize(serializer)
        for idx, child in enumerate(self._children):
            child.serialize(serializer['%d' % idx])
