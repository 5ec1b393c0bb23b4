"""`TimerHook`: measures the time spent in each link's forward."""
import collections

from minichainer import link_hook
from minichainer.function_hooks.call_timer import CallTimer


class TimerHook(CallTimer, link_hook.LinkHook):
    """Record the elapsed time of every link's forward call.

    `call_history` is a list of `(link class name, seconds)`.
    """

    name = 'TimerHook'
    _kind = 'link'
    _name_column = 'LinkName'
    _summary_type = collections.OrderedDict

    def forward_preprocess(self, args):
        self._start()

    def forward_postprocess(self, args):
        self._stop(type(args.link).__name__)

    def _flush(self, file):
        file.flush()
