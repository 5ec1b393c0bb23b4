"""Trainer extension base class and the `make_extension` decorator."""

PRIORITY_WRITER = 300
PRIORITY_EDITOR = 200
PRIORITY_READER = 100


class Extension:
    """Base class of trainer extensions.

    An extension is a callable taking the trainer.  The class attributes give the
    defaults `Trainer.extend` uses: `trigger` (`(1, 'iteration')`), `priority`
    (`PRIORITY_READER`) and `name` (set on registration; `default_name` is the
    class name).  `initialize` runs before the loop (and after a resume),
    `on_error` when the loop raises, `finalize` always at the end.
    """

    trigger = 1, 'iteration'
    priority = PRIORITY_READER
    name = None

    @property
    def default_name(self):
        """Default name of the extension: its class name."""
        return type(self).__name__

    def __call__(self, trainer):
        raise NotImplementedError(
            '{}: an Extension subclass must override __call__(trainer)'.format(
                type(self).__name__))

    def __getattr__(self, name):
        if name == 'invoke_before_training':
            raise AttributeError(
                'invoke_before_training has been removed since Chainer v2.0.0. '
                'Use Extension.initialize instead.')
        raise AttributeError('{} object has no attribute {}'.format(
            type(self).__name__, name))

    def finalize(self):
        """Called once at the end of the training loop, even after an error."""
        pass

    def initialize(self, trainer):
        """Called before the training loop starts (including after a resume)."""
        pass

    def on_error(self, trainer, exc, tb):
        """Called when the training loop raises `exc` (with traceback `tb`)."""
        pass

    def serialize(self, serializer):
        """Save or load the extension's state; nothing by default."""
        pass


def make_extension(trigger=None, default_name=None, priority=None,
                   finalizer=None, initializer=None, on_error=None, **kwargs):
    """Decorator turning a function `f(trainer)` into a trainer extension.

    It sets the attributes `trigger`, `default_name`, `priority`, `finalize`,
    `initialize` and `on_error` of the decorated function.

    Raises:
        ValueError: the removed `invoke_before_training` argument is given.
        TypeError: any other unexpected keyword argument is given.
    """
    if 'invoke_before_training' in kwargs:
        raise ValueError(
            'invoke_before_training has been removed since Chainer v2.0.0. '
            'Use initializer= instead.')
    if kwargs:
        raise TypeError('make_extension() got unexpected keyword argument(s) {}'.format(
            ', '.join(repr(k) for k in sorted(kwargs))))
    if trigger is None:
        trigger = Extension.trigger
    if priority is None:
        priority = Extension.priority

    def decorator(ext):
        ext.trigger = trigger
        ext.default_name = default_name or ext.__name__
        ext.priority = priority
        ext.finalize = finalizer
        ext.on_error = on_error
        ext.initialize = initializer
        return ext

    return decorator
