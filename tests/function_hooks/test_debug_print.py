"""function_hooks.PrintHook: output of forward/backward calls, compared with Chainer 7.8.1."""
import io
import re
import warnings

import numpy
import pytest

import minichainer
import minichainer.functions as F
from minichainer import function_hooks
from minichainer.function_hooks import debug_print

# Chainer 7.8.1's output for the program in test_output_matches_chainer (addresses
# replaced by ADDR).
_STATS = "- device: CPU\n- backend: <class 'numpy.ndarray'>\n"
_EXPECTED = (
    "function\tSum|\ninput data|\n<variable at ADDR>\n" + _STATS
    + "- shape: (2, 2)\n- dtype: float32\n- statistics: mean=2.75000000, std=1.47902000\n"
    "- grad: None|\n"
    "function\tSum|\ninput data|\n(removed)|\noutput gradient|\n<variable at ADDR>\n"
    + _STATS + "- shape: ()\n- dtype: float32\n- statistics: mean=0.00000000, "
    "std=0.00000000\n- grad: mean=2.00000000, std=0.00000000|\n"
    "function\tBroadcastTo|\ninput data|\n<variable at ADDR>\n" + _STATS
    + "- shape: ()\n- dtype: float32\n- statistics: mean=2.00000000, std=0.00000000\n"
    "- grad: None|\n")


def test_exports_and_name():
    assert function_hooks.PrintHook is debug_print.PrintHook
    assert function_hooks.PrintHook().name == 'PrintHook'


def test_output_matches_chainer():
    x = minichainer.Variable(numpy.array([[1., 2.], [3., 5.]], numpy.float32))
    out = io.StringIO()
    with function_hooks.PrintHook(file=out, end='|\n'):
        y = F.sum(x)
        y.grad = numpy.array(2, numpy.float32)
        y.backward()
    assert re.sub('0x[0-9a-f]+', 'ADDR', out.getvalue()) == _EXPECTED


class _Flushes(io.StringIO):
    flushes = 0

    def flush(self):
        self.flushes += 1


def test_flush_flag_and_node_local_hook():
    x = minichainer.Variable(numpy.ones((2, 2), numpy.float32))
    out = _Flushes()
    node = F.math.exponential.Exp()
    node.add_hook(function_hooks.PrintHook(file=out, flush=False))
    y, = node.apply((x,))
    assert out.getvalue().startswith('function\texp\ninput data\n<variable at ')
    assert out.flushes == 0
    out2 = _Flushes()
    with function_hooks.PrintHook(file=out2):
        F.exp(x)
    assert out2.flushes == 1


def test_none_output_gradient_prints_empty_variable():
    out = io.StringIO()
    hook = function_hooks.PrintHook(file=out)
    a = numpy.zeros(3, numpy.float32)
    hook.backward_preprocess(F.math.exponential.Exp(), (a,), (None,))
    text = out.getvalue()
    assert 'output gradient\n<variable at ' in text
    assert '- shape: None\n- dtype: None\n- statistics: None\n- grad: None\n' in text  # as Chainer


def test_sep_is_deprecated():
    with pytest.warns(DeprecationWarning, match='sep argument'):
        hook = function_hooks.PrintHook(sep=' ')
    assert hook.sep == ' '
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        function_hooks.PrintHook()


@pytest.mark.parametrize('cls, words', [
    (function_hooks.CupyMemoryProfileHook, 'CupyMemoryProfileHook: requires CuPy'),
    (function_hooks.CUDAProfileHook, 'CUDAProfileHook: requires CuPy'),
])
def test_cuda_only_hooks_raise(cls, words):
    with pytest.raises(RuntimeError, match=words + '.*CUDA'):
        cls()
    assert cls.name == cls.__name__
