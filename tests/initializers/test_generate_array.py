import numpy as np
import pytest

import minichainer
from minichainer import initializers
from minichainer import initializer


def test_generate_array_uses_config_dtype_by_default():
    a = initializers.generate_array(initializers.One(), (2, 3), np)
    assert a.dtype == np.float32 and a.shape == (2, 3) and (a == 1).all()
    with minichainer.using_config('dtype', np.dtype(np.float64)):
        assert initializers.generate_array(initializers.One(), (2,), np).dtype == np.float64


def test_generate_array_dtype_precedence_and_mismatch():
    assert initializers.generate_array(
        initializers.Zero(dtype=np.float16), (2,), np).dtype == np.float16
    assert initializers.generate_array(
        initializers.Zero(), (2,), np, dtype=np.float64).dtype == np.float64
    with pytest.raises(ValueError, match='dtype mismatch'):
        initializers.generate_array(initializers.Zero(dtype=np.float16), (2,), np,
                                    dtype=np.float32)


def test_get_initializer_conventions():
    assert isinstance(initializers._get_initializer(None), initializers.LeCunNormal)
    c = initializers._get_initializer(3)
    assert isinstance(c, initializers.Constant) and c.fill_value == 3
    arr = np.arange(3.)
    c = initializers._get_initializer(arr)
    assert isinstance(c, initializers.Constant) and c.fill_value is arr
    init = initializers.HeNormal()
    assert initializers._get_initializer(init) is init
    with pytest.raises(TypeError, match='initializer'):
        initializers._get_initializer('zero')


def test_get_fans():
    assert initializer.get_fans((4, 3)) == (3, 4)
    assert initializer.get_fans((4, 3, 2, 5)) == (30, 40)
    with pytest.raises(ValueError, match='tuple'):
        initializer.get_fans([4, 3])


def test_base_class_is_abstract():
    with pytest.raises(NotImplementedError):
        initializer.Initializer()(np.empty(2))


def test_generate_array_device_must_match_xp_and_initializer_like_check():
    a = initializers.generate_array(initializers.One(), (2,), np, device='@numpy')
    assert (a == 1).all()

    class FakeXp:
        __name__ = 'fake'

    with pytest.raises(ValueError, match='inconsistent'):
        initializers.generate_array(initializers.One(), (2,), FakeXp(), device='@numpy')
    for ok in (None, 1.0, np.zeros(2), initializers.Zero(), lambda a: None):
        initializers._check_is_initializer_like(ok)
    with pytest.raises(TypeError, match='wrong type'):
        initializers._check_is_initializer_like([1, 2])
