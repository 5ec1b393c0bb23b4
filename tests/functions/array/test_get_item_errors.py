import numpy
import pytest

import minichainer
from minichainer import functions as F


def test_multiple_ellipsis_raises_value_error_in_debug_mode():
    x = numpy.zeros((4, 3, 2), dtype=numpy.float32)
    with minichainer.using_config('debug', True):
        with pytest.raises(ValueError):
            F.get_item(x, (Ellipsis, Ellipsis))
