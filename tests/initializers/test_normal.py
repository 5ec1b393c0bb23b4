import math

import numpy as np
import pytest

from minichainer import initializers


def _draw_normal(seed, scale, shape, dtype):
    np.random.seed(seed)
    return np.random.normal(loc=0.0, scale=scale, size=shape).astype(dtype)


@pytest.mark.parametrize('dtype', [np.float16, np.float32, np.float64])
def test_normal_matches_global_numpy_draw(dtype):
    a = np.empty((3, 4), dtype)
    np.random.seed(7)
    initializers.Normal(0.3)(a)
    np.testing.assert_array_equal(a, _draw_normal(7, 0.3, (3, 4), dtype))


@pytest.mark.parametrize('cls, scale_fn', [
    (initializers.LeCunNormal, lambda fi, fo: math.sqrt(1. / fi)),
    (initializers.GlorotNormal, lambda fi, fo: math.sqrt(2. / (fi + fo))),
    (initializers.HeNormal, lambda fi, fo: math.sqrt(2. / fi)),
])
def test_scaled_normals_match_hand_computed_draws(cls, scale_fn):
    shape = (5, 3, 2, 2)  # fan_in = 12, fan_out = 20
    a = np.empty(shape, np.float32)
    np.random.seed(3)
    cls(scale=1.5)(a)
    expected = _draw_normal(3, 1.5 * scale_fn(12, 20), shape, np.float32)
    np.testing.assert_array_equal(a, expected)


def test_he_normal_fan_out_and_bad_option():
    a = np.empty((4, 6), np.float32)
    np.random.seed(1)
    initializers.HeNormal(fan_option='fan_out')(a)
    np.testing.assert_array_equal(a, _draw_normal(1, math.sqrt(2. / 4), (4, 6), np.float32))
    with pytest.raises(ValueError, match='fan_option'):
        initializers.HeNormal(fan_option='fan_avg')(a)


def test_rng_argument_is_used_and_global_state_untouched():
    np.random.seed(0)
    before = np.random.get_state()[1].copy()
    a = np.empty((3, 3), np.float32)
    initializers.LeCunNormal(rng=np.random.RandomState(11))(a)
    np.testing.assert_array_equal(np.random.get_state()[1], before)
    expected = np.random.RandomState(11).normal(
        loc=0.0, scale=math.sqrt(1. / 3), size=(3, 3)).astype(np.float32)
    np.testing.assert_array_equal(a, expected)


def test_unknown_keyword_is_rejected():
    with pytest.raises(TypeError, match='seed'):
        initializers.Normal(seed=1)


def test_fans_need_two_dimensions():
    with pytest.raises(ValueError, match='at least 2'):
        initializers.LeCunNormal()(np.empty((3,), np.float32))


def test_statistics_of_lecun_normal():
    a = np.empty((400, 100), np.float64)
    np.random.seed(0)
    initializers.LeCunNormal()(a)
    assert abs(a.std() - 0.1) < 0.002
    assert abs(a.mean()) < 0.002
