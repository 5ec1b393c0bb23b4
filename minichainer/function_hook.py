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


class FunctionHook:
    """Base class of function hooks; override the `*_preprocess`/`*_postprocess`."""

    name = 'FunctionHook'

    def __enter__(self):
        hooks = get_function_hooks()
        if self.name in hooks:
            raise KeyError('hook {} already exists'.format(self.name))
        hooks[self.name] = self
        registered_hooks.value += 1
        self.added(None)
        return self

    def __exit__(self, *_):
        hooks = get_function_hooks()
        hooks[self.name].deleted(None)
        del hooks[self.name]
        registered_hooks.value -= 1

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
