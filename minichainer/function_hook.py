"""Function hooks (`chainer.FunctionHook`): callbacks around every function application.

A hook is registered for the current thread with `with hook:` (or `hook.__enter__()`),
or for a single function node with `node.add_hook(hook)`.
"""
import collections
import threading

_thread_local = threading.local()


class HookCount:
    """How many function hooks are registered, in all threads together (`.value`).

    Hot paths test `registered_hooks.value` (one attribute read) before they look up
    the current thread's hooks with `get_function_hooks`.
    """

    __slots__ = ('value',)

    def __init__(self):
        self.value = 0


registered_hooks = HookCount()
_HookCount = HookCount  # the name it had before


def get_function_hooks():
    """The function hooks registered for the current thread (an ordered dict)."""
    hooks = getattr(_thread_local, 'function_hooks', None)
    if hooks is None:
        hooks = _thread_local.function_hooks = collections.OrderedDict()
    return hooks


# -- The registry rules function hooks and link hooks share ---------------------------

def enter_thread_hook(hook, hooks, count):
    """`with hook:`: register `hook` in the current thread's `hooks` under its name and
    count it in `count` (a `HookCount`); then call `hook.added(None)`.

    Raises:
        KeyError: a hook of that name is already registered in this thread.
    """
    name = hook.name
    if name in hooks:
        raise KeyError('hook {!r} already exists (registered in this thread)'.format(name))
    hooks[name] = hook
    count.value += 1
    hook.added(None)


def exit_thread_hook(hook, hooks, count):
    """The end of `with hook:`: call `hook.deleted(None)` and unregister it.

    Raises:
        KeyError: `hook` itself is not registered in this thread (left twice, or in
            another thread); nothing is changed then.
    """
    name = hook.name
    if hooks.get(name) is not hook:
        raise KeyError('hook {!r} is not registered in this thread'.format(name))
    hook.deleted(None)
    del hooks[name]
    count.value -= 1


def add_local_hook(owner, hooks, hook, name, base):
    """`Link.add_hook` / `FunctionNode.add_hook`: put `hook` (an instance of `base`)
    into `hooks` under `name` (default `hook.name`); the caller then calls `added`.

    Raises:
        TypeError: `hook` is not an instance of `base`.
        KeyError: a hook of that name is already registered on `owner`.
    """
    if not isinstance(hook, base):
        raise TypeError('{}.add_hook: hook must be a {}, got {}'.format(
            type(owner).__name__, base.__name__, type(hook).__name__))
    if name is None:
        name = hook.name
    if name in hooks:
        raise KeyError('hook {!r} already exists on this {}'.format(
            name, type(owner).__name__))
    hooks[name] = hook


def delete_local_hook(owner, hooks, name):
    """`Link.delete_hook` / `FunctionNode.delete_hook`: remove and return the hook
    registered as `name`; the caller then calls its `deleted`.

    Raises:
        KeyError: no hook of that name is registered on `owner`.
    """
    if name not in hooks:
        raise KeyError('hook {!r} does not exist on this {}'.format(
            name, type(owner).__name__))
    return hooks.pop(name)


class FunctionHook:
    """Base class of function hooks; override the `*_preprocess`/`*_postprocess`."""

    name = 'FunctionHook'

    def __enter__(self):
        enter_thread_hook(self, get_function_hooks(), registered_hooks)
        return self

    def __exit__(self, *_):
        exit_thread_hook(self, get_function_hooks(), registered_hooks)

    def added(self, function):
        pass

    def deleted(self, function):
        pass

    def forward_preprocess(self, function, in_data):
        pass

    def forward_postprocess(self, function, in_data):
        pass

    def backward_preprocess(self, function, in_data, out_grad):
        pass

    def backward_postprocess(self, function, in_data, out_grad):
        pass
