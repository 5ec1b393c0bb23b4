"""`LinkHook`: callbacks run around `Link.forward` (`chainer.link_hook`).

Hooks are registered globally for the current thread with `with hook:` or on one link
with [`Link.add_hook`][minichainer.link.Link.add_hook].
"""
import collections
import threading

from minichainer import function_hook

_thread_local = threading.local()


# Link hooks registered with ``with hook:``, in all threads together: ``Link.__call__``
# reads ``registered_hooks.value`` before it looks up the current thread's hooks.
registered_hooks = function_hook.HookCount()


def get_link_hooks():
    """The current thread's ordered dict of globally registered link hooks."""
    try:
        return _thread_local.link_hooks
    except AttributeError:
        hooks = _thread_local.link_hooks = collections.OrderedDict()
        return hooks


def _get_link_hooks():
    """Chainer's private accessor (``chainer._get_link_hooks``). Its callers (Chainer
    Chemistry) put hooks into the dict directly, which the count cannot see: from the
    first call on, every `Link` call looks the current thread's hooks up."""
    if not _direct_access:
        _direct_access.append(True)
        registered_hooks.value += 1
    return get_link_hooks()


_direct_access = []


class ForwardPreprocessCallbackArgs:
    """What `LinkHook.forward_preprocess` receives: link, forward_name, args, kwargs."""

    __slots__ = ('link', 'forward_name', 'args', 'kwargs')

    def __init__(self, link, forward_name, args, kwargs):
        self.link = link
        self.forward_name = forward_name
        self.args = args
        self.kwargs = kwargs

    def __repr__(self):
        return '<_ForwardPreprocessCallbackArgs link={} forward_name={} args={} kwargs={}>'.format(
            type(self.link).__name__, self.forward_name, self.args, self.kwargs)


class ForwardPostprocessCallbackArgs:
    """What `LinkHook.forward_postprocess` receives: also `out`."""

    __slots__ = ('link', 'forward_name', 'args', 'kwargs', 'out')

    def __init__(self, link, forward_name, args, kwargs, out):
        self.link = link
        self.forward_name = forward_name
        self.args = args
        self.kwargs = kwargs
        self.out = out

    def __repr__(self):
        text = '<_ForwardPostprocessCallbackArgs link={} forward_name={} args={} kwargs={} out={}>'
        return text.format(type(self.link).__name__, self.forward_name, self.args, self.kwargs,
                           self.out)


# Chainer's names for the two argument records
_ForwardPreprocessCallbackArgs = ForwardPreprocessCallbackArgs
_ForwardPostprocessCallbackArgs = ForwardPostprocessCallbackArgs


class LinkHook:
    """Base class of link hooks; override `added`, `deleted`, `forward_preprocess`
    and `forward_postprocess` (all no-ops by default).

    `with hook:` registers the hook for every link called in the block (current thread).
    """

    name = 'LinkHook'

    def __enter__(self):
        function_hook.enter_thread_hook(self, get_link_hooks(), registered_hooks)
        return self

    def __exit__(self, *_):
        function_hook.exit_thread_hook(self, get_link_hooks(), registered_hooks)

    def added(self, link):
        """Called when registered; `link` is None for a global registration."""

    def deleted(self, link):
        """Called when unregistered; `link` is None for a global registration."""

    def forward_preprocess(self, args):
        """Called before `forward` with `args.link`, `forward_name`, `args`, `kwargs`."""

    def forward_postprocess(self, args):
        """Called after `forward`; `args.out` is its return value."""
