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


# Tables built by Chainer 7.8.1 (on NumPy 1.26) for these weights.
_CHAINER_TABLES = [
    ([3.0, 2.0, 1.0], [0.5, 0.5, 1.0], [2, 1, 1, 0, 0, 0]),
    ([1.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0], [0, 0, 1, 0, 2, 0, 3, 0]),
    ([36.0, 15.0, 48.0, 39.0, 17.0, 10.0, 9.0],
     [0.3620689809322357, 0.40229883790016174, 0.6034482717514038, 0.6839080452919006,
      0.8103448748588562, 0.9712643623352051, 1.0],
     [6, 0, 5, 3, 1, 2, 4, 2, 0, 2, 3, 2, 2, 0]),
    ([4.0, 7.0, 16.0, 16.0, 7.0, 12.0, 15.0, 17.0, 7.0],
     [0.356435626745224, 0.6237623691558838, 0.6237623691558838, 0.6237623691558838,
      0.42574256658554077, 0.9603960514068604, 0.6732673048973083, 0.8514851331710815,
      0.9999999403953552],
     [0, 5, 1, 6, 4, 2, 8, 2, 5, 3, 6, 7, 2, 7, 3, 7, 7, 0]),
    ([0.1, 0.7, 0.2], [0.30000001192092896, 0.6000000238418579, 1.0], [0, 1, 2, 1, 1, 0]),
]


@pytest.mark.parametrize('weights,threshold,values', _CHAINER_TABLES)
def test_walker_alias_table_equals_chainers(weights, threshold, values):
    # Same table => same samples from the same seed as Chainer (NegativeSampling,
    # BlackOut draws).
    from minichainer.utils import WalkerAlias
    sampler = WalkerAlias(weights)
    assert sampler.threshold.dtype == numpy.float32
    assert sampler.threshold.tolist() == threshold
    assert sampler.values.tolist() == values
