"""Trainer extensions (`chainer.training.extensions`)."""
from minichainer.training.extensions import snapshot_writers  # noqa: F401
from minichainer.training.extensions._snapshot import snapshot  # noqa: F401
from minichainer.training.extensions._snapshot import snapshot_object  # noqa: F401
from minichainer.training.extensions.computational_graph import dump_graph  # noqa: F401
from minichainer.training.extensions.computational_graph import DumpGraph  # noqa: F401
from minichainer.training.extensions.evaluator import Evaluator  # noqa: F401
from minichainer.training.extensions.exponential_shift import ExponentialShift  # noqa
from minichainer.training.extensions.fail_on_nonnumber import FailOnNonNumber  # noqa
from minichainer.training.extensions.inverse_shift import InverseShift  # noqa: F401
from minichainer.training.extensions.linear_shift import LinearShift  # noqa: F401
from minichainer.training.extensions.log_report import LogReport  # noqa: F401
from minichainer.training.extensions.micro_average import MicroAverage  # noqa: F401
from minichainer.training.extensions.multistep_shift import MultistepShift  # noqa: F401
from minichainer.training.extensions.parameter_statistics import ParameterStatistics  # noqa
from minichainer.training.extensions.plot_report import PlotReport  # noqa: F401
from minichainer.training.extensions.polynomial_shift import PolynomialShift  # noqa: F401
from minichainer.training.extensions.print_report import PrintReport  # noqa: F401
from minichainer.training.extensions.progress_bar import ProgressBar  # noqa: F401
from minichainer.training.extensions.step_shift import StepShift  # noqa: F401
from minichainer.training.extensions.tensorboard_report import TensorBoardReport  # noqa
from minichainer.training.extensions.variable_unchain import unchain_variables  # noqa
from minichainer.training.extensions.value_observation import observe_lr  # noqa: F401
from minichainer.training.extensions.value_observation import observe_value  # noqa: F401
from minichainer.training.extensions.variable_statistics_plot import VariableStatisticsPlot  # noqa
from minichainer.training.extensions.warmup_shift import WarmupShift  # noqa: F401
