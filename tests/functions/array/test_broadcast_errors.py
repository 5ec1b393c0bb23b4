import pytest

from minichainer import functions as F
from minichainer.utils import type_check


def test_broadcast_without_arguments_raises_invalid_type():
    with pytest.raises(type_check.InvalidType):
        F.broadcast()
