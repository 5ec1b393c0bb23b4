import numpy

from minichainer.functions.array import flip


def test_private_flip_helper_matches_numpy():
    x = numpy.arange(24, dtype=numpy.float32).reshape(2, 3, 4)
    for axis in (0, 1, 2, -1, -3):
        numpy.testing.assert_array_equal(flip._flip(x, axis), numpy.flip(x, axis))
