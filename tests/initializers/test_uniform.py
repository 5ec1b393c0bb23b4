import math

import numpy as np
import pytest

from minichainer import initializers


def _draw_uniform(seed, s, shape, dtype):
    np.random.seed(seed)
    return np.random.uniform(low=-s, high=s, size=shape).astype(dtype)


@pytest.mark.parametrize('dtype', [np.float32, np.float64])
def test_uniform_matches_global_numpy_draw(dtype):
    a = np.empty((2, 5), dtype)
    np.random.seed(4)
    initializers.Uniform(0.2)(a)
    np.testing.assert_array_equal(a, _draw_uniform(4, 0.2, (2, 5), dtype))


@pytest.mark.parametrize('cls, s_fn', [
    (initializers.LeCunUniform, lambda fi, fo: math.sqrt(3. / fi)),
    (initializers.GlorotUniform, lambda fi, fo: math.sqrt(6. / (fi + fo))),
    (initializers.HeUniform, lambda fi, fo: math.sqrt(6. / fi)),
])
def test_scaled_uniforms_match_hand_computed_draws(cls, s_fn):
    shape = (6, 4, 3)  # fan_in = 12, fan_out = 18
    a = np.empty(shape, np.float32)
    np.random.seed(9)
    cls(scale=0.5)(a)
    np.testing.assert_array_equal(
        a, _draw_uniform(9, 0.5 * s_fn(12, 18), shape, np.float32))
    assert np.abs(a).max() <= 0.5 * s_fn(12, 18)


def test_uniform_rng():
    a = np.empty((3, 2), np.float32)
    initializers.GlorotUniform(rng=np.random.RandomState(5))(a)
    s = math.sqrt(6. / 5)
    expected = np.random.RandomState(5).uniform(-s, s, (3, 2)).astype(np.float32)
    np.testing.assert_array_equal(a, expected)
