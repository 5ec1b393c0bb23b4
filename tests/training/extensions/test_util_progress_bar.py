"""extensions.util.ProgressBar: the multi-line console bar base class."""
import io
import math

import pytest

from minichainer.training.extensions import util


class _Bar(util.ProgressBar):
    def get_lines(self):
        return ['line one\n', 'line two\n']


def test_update_draws_lines_and_moves_cursor_up():
    out = io.StringIO()
    bar = _Bar(out=out)
    bar.update()
    assert out.getvalue() == '\033[Jline one\nline two\n\033[2A'
    bar.close()
    assert out.getvalue().endswith('\033[J')


def test_defaults_and_abstract_get_lines():
    bar = util.ProgressBar()
    assert bar._bar_length == 50
    with pytest.raises(NotImplementedError):
        bar.get_lines()


def test_update_speed_first_point_is_infinite():
    bar = util.ProgressBar(out=io.StringIO())
    assert all(math.isinf(v) for v in bar.update_speed(0, 0.0))
