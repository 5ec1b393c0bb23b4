"""`unchain_variables`: cut the graphs of reported variables once all extensions ran."""
from minichainer import configuration
from minichainer import variable
from minichainer.training import extension


class unchain_variables(extension.Extension):  # noqa: N801 (Chainer's name)
    """Call `unchain_backward()` on every Variable of `trainer.observation`.

    A last resort against memory kept alive by graphs that reported values carry
    when `config.keep_graph_on_report` is on. With priority 0 it runs after the
    other extensions. It fires on an iteration when the flag was on at the
    previous trigger check (at `initialize` for the first iteration), so the
    graphs of an iteration reported under the flag are cut.
    """

    priority = 0

    def __init__(self):
        self._prev_flag = None

    def initialize(self, _):
        self._prev_flag = configuration.config.keep_graph_on_report

    def trigger(self, _):
        fire = self._prev_flag
        self._prev_flag = configuration.config.keep_graph_on_report
        return fire

    def __call__(self, trainer):
        for value in trainer.observation.values():
            if isinstance(value, variable.Variable):
                value.unchain_backward()
