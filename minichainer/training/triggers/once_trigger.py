"""OnceTrigger: fires once, at the first call (optionally again after a resume)."""
import warnings


class OnceTrigger:
    """Trigger that fires only at its first call.

    Args:
        call_on_resume (bool): Also fire at the first call after the trainer is
            resumed from a snapshot.

    Attributes:
        finished (bool): True once it has fired (the trainer then skips the extension's
            `initialize`).
    """

    def __init__(self, call_on_resume=False):
        self._flag_first = True
        self._flag_resumed = call_on_resume

    @property
    def finished(self):
        return not (self._flag_first or self._flag_resumed)

    def __call__(self, trainer):
        fire = not self.finished
        self._flag_resumed = False
        self._flag_first = False
        return fire

    def serialize(self, serializer):
        """Save or load whether the first call has happened."""
        try:
            self._flag_first = serializer('_flag_first', self._flag_first)
        except KeyError:
            warnings.warn(
                'The flag is not saved. OnceTrigger guesses it is not the first call '
                'when resumed. If this trigger is resumed before its first call, it may '
                'not work correctly.')
            self._flag_first = False
