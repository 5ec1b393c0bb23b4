"""DumpGraph: write the computational graph of a reported variable as a dot file."""
import os
import subprocess

from minichainer import computational_graph
from minichainer import configuration
from minichainer import variable
from minichainer.training import extension
from minichainer.utils import atomic_write

def is_return_code_zero(args):
    """Return True when running the command `args` (a list of str) exits with 0.

    Its output is discarded; a missing command or a non-zero exit gives False.
    """
    try:
        subprocess.check_call(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    except (subprocess.CalledProcessError, OSError):
        return False
    return True


def is_graphviz_available():
    """Return True when Graphviz's `dot` command can be run."""
    return is_return_code_zero(['dot', '-V'])


_var_style = {'shape': 'octagon', 'fillcolor': '#E0E0E0', 'style': 'filled'}
_func_style = {'shape': 'record', 'fillcolor': '#6495ED', 'style': 'filled'}


class DumpGraph(extension.Extension):
    """Trainer extension that dumps the graph of `observation[root_name]` once, at the
    first iteration, to `<out>/<filename>` (`cg.dot`) in the dot language. When
    Graphviz's `dot` command is available, the graph is also rendered to a PNG image
    next to it (same name, `.png` extension).

    `initialize` turns `config.keep_graph_on_report` on so that the reported
    variable keeps its graph; the flag is restored after the dump.

    Args:
        root_name (str): Observation key of the root variable (e.g. `'main/loss'`).
        filename (str): Output file name (`out_name` is accepted as an alias).
        variable_style (dict), function_style (dict): Dot styles of the nodes.
    """

    default_name = 'dump_graph'

    def __init__(self, root_name, filename=None, variable_style=None, function_style=None,
                 **kwargs):
        out_name = kwargs.pop('out_name', 'cg.dot')
        if kwargs:
            raise TypeError('DumpGraph() got unexpected keyword argument(s) {}'.format(
                ', '.join(repr(k) for k in sorted(kwargs))))
        self._root_name = root_name
        self._filename = out_name if filename is None else filename
        self._variable_style = _var_style if variable_style is None else variable_style
        self._function_style = _func_style if function_style is None else function_style
        self._original_flag = None
        self._flag_called = False

    def initialize(self, trainer):
        if not self._flag_called:
            self._original_flag = configuration.config.keep_graph_on_report
            configuration.config.keep_graph_on_report = True
            self._flag_set = True
        elif getattr(self, '_flag_set', False):
            # Already dumped in a run this snapshot was taken from: undo our change.
            configuration.config.keep_graph_on_report = bool(self._original_flag)
            self._flag_set = False

    def trigger(self, trainer):
        """Fire at the first call only."""
        if self._flag_called:
            return False
        self._flag_called = True
        return True

    def __call__(self, trainer):
        try:
            var = trainer.observation[self._root_name]
            if not isinstance(var, variable.Variable):
                raise TypeError('DumpGraph: the root value {!r} is not a Variable, got '
                                '{}'.format(self._root_name, type(var).__name__))
            cg = computational_graph.build_computational_graph(
                [var], variable_style=self._variable_style,
                function_style=self._function_style).dump()
            filename = os.path.join(trainer.out, self._filename)
            atomic_write.write_text(filename, cg)
            if is_graphviz_available():
                image = os.path.join(
                    trainer.out, os.path.splitext(self._filename)[0] + '.png')
                subprocess.check_call(['dot', '-Tpng', filename, '-o', image])
        finally:
            configuration.config.keep_graph_on_report = bool(self._original_flag)
            self._flag_set = False

    def serialize(self, serializer):
        """Save or load whether the graph was dumped and the original flag."""
        self._original_flag = serializer('_original_flag', self._original_flag)
        self._flag_called = serializer('_flag_called', self._flag_called)


# Chainer 7 exports ``dump_graph`` as another name of the class.
dump_graph = DumpGraph
