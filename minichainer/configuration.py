"""Thread-local configuration, as in `chainer.configuration`.

`config` looks a key up in the current thread's local settings first and falls back to
`global_config`.  `using_config` changes a key for the current thread inside a `with`.
"""
import contextlib
import sys
import threading


class GlobalConfig:
    """Process-wide configuration; the defaults every thread starts from."""

    def show(self, file=sys.stdout):
        """Print every key and value, sorted by key."""
        keys = sorted(self.__dict__)
        _print_attrs(self, keys, file)


class LocalConfig:
    """Thread-local view of a [`GlobalConfig`][minichainer.configuration.GlobalConfig].

    Reading an attribute looks in the thread's own settings, then in the global config;
    writing one only changes the calling thread.
    """

    def __init__(self, global_config):
        super().__setattr__('_global', global_config)
        super().__setattr__('_local', threading.local())

    def __delattr__(self, name):
        delattr(self._local, name)

    def __getattr__(self, name):
        local = self._local.__dict__
        if name in local:
            return local[name]
        return getattr(self._global, name)

    def __setattr__(self, name, value):
        setattr(self._local, name, value)

    def show(self, file=sys.stdout):
        """Print every key visible from this thread, with its effective value."""
        keys = sorted(set(self._global.__dict__) | set(self._local.__dict__))
        _print_attrs(self, keys, file)


def _print_attrs(obj, keys, file):
    width = max((len(k) for k in keys), default=0)
    for key in keys:
        file.write('{} {}\n'.format(key.ljust(width), getattr(obj, key)))


global_config = GlobalConfig()
config = LocalConfig(global_config)
_config_local = config._local


def thread_settings():
    """The settings the current thread changed in `config` (a dict; do not modify it).

    With `global_config` it makes up `config`: a key found here wins.  Hot paths
    that read several keys use it as `local[name] if name in local else
    global_config.<name>`, which is what `config.<name>` does without the attribute hook.
    """
    return _config_local.__dict__


def get_value(name):
    """The value of `config.<name>` in the current thread (faster than the attribute)."""
    local = _config_local.__dict__
    if name in local:
        return local[name]
    return getattr(global_config, name)


@contextlib.contextmanager
def using_config(name, value, config=config):
    """Set `config.<name>` to `value` for the current thread inside a `with` block."""
    local = config._local.__dict__ if isinstance(config, LocalConfig) else None
    if local is not None and name in local:
        old = local[name]
        setattr(config, name, value)
        try:
            yield
        finally:
            setattr(config, name, old)
    else:
        setattr(config, name, value)
        try:
            yield
        finally:
            delattr(config, name)
