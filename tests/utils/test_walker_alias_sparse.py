import numpy
import pytest

from minichainer import utils


def test_walker_alias_distribution():
    probs = [0.1, 0.5, 0.0, 0.4]
    sampler = utils.WalkerAlias(probs)
    numpy.random.seed(1)
    samples = sampler.sample((40000,))
    assert samples.dtype == numpy.int32
    freq = numpy.bincount(samples, minlength=4) / samples.size
    numpy.testing.assert_allclose(freq, probs, atol=0.01)
    assert (samples != 2).all()


def test_walker_alias_draws_one_uniform_per_sample():
    sampler = utils.WalkerAlias([1, 2, 3])
    numpy.random.seed(3)
    sampler.sample((5, 2))
    after = numpy.random.uniform()
    numpy.random.seed(3)
    numpy.random.uniform(0, 3, (5, 2))
    assert numpy.random.uniform() == after


def test_walker_alias_bad_probs():
    with pytest.raises(ValueError):
        utils.WalkerAlias([])
    with pytest.raises(ValueError):
        utils.WalkerAlias([-1, 2])


def test_to_coo_roundtrip_and_order():
    x = numpy.array([[0, 2, 0], [-1, 0, 3]], numpy.float32)
    coo = utils.to_coo(x)
    numpy.testing.assert_array_equal(coo.data.array, [2, -1, 3])
    numpy.testing.assert_array_equal(coo.row, [0, 1, 1])
    numpy.testing.assert_array_equal(coo.col, [1, 0, 2])
    assert coo.shape == (2, 3) and coo.order == 'C'
    numpy.testing.assert_array_equal(coo.to_dense(), x)
    padded = utils.to_coo(x, ldnz=5)
    assert padded.data.shape == (5,)
    numpy.testing.assert_array_equal(padded.to_dense(), x)


def test_to_coo_batch():
    x = numpy.zeros((2, 2, 3), numpy.float32)
    x[0, 0, 1] = 1
    x[1, 1, 2] = 2
    x[1, 0, 0] = 3
    coo = utils.to_coo(x)
    assert coo.data.shape == (2, 2)
    numpy.testing.assert_array_equal(coo.to_dense(), x)


def test_get_order():
    assert utils.get_order(numpy.array([0, 0, 1]), numpy.array([0, 2, 1])) == 'C'
    assert utils.get_order(numpy.array([1, 0, 2]), numpy.array([0, 1, 1])) == 'F'
    assert utils.get_order(numpy.array([1, 0, 2]), numpy.array([1, 0, 0])) == 'other'


def test_coo_bad_args():
    with pytest.raises(ValueError):
        utils.CooMatrix(numpy.zeros((1, 1, 1)), numpy.zeros((1, 1, 1)),
                        numpy.zeros((1, 1, 1)), (1, 1))
    with pytest.raises(ValueError):
        utils.to_coo(numpy.zeros(3))
