"""testing.generate_matrix is exported at package level and handles empty shapes."""
import numpy as np
import pytest

from minichainer import testing
from minichainer.testing import matrix


def test_exported_and_empty_batch():
    x = testing.generate_matrix((0, 2, 3), dtype=np.float32, singular_values=np.ones((0, 2)))
    assert x.shape == (0, 2, 3) and x.dtype == np.float32
    with pytest.raises(ValueError):
        testing.generate_matrix((0, 2, 3), singular_values=np.ones(3))
    assert matrix._broadcast_to(np.ones(2), (3, 2)).shape == (3, 2)
