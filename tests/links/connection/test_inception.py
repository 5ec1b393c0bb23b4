import numpy as np
import pytest

import minichainer
import minichainer.links as L

from .. import _util


def test_inception_output_and_init_order():
    np.random.seed(0)
    link = L.Inception(3, 2, 2, 3, 1, 2, 2)
    np.random.seed(0)
    shapes = [('conv1', (2, 3, 1, 1)), ('proj3', (2, 3, 1, 1)), ('conv3', (3, 2, 3, 3)),
              ('proj5', (1, 3, 1, 1)), ('conv5', (2, 1, 5, 5)), ('projp', (2, 3, 1, 1))]
    for name, shape in shapes:
        fan_in = int(np.prod(shape[1:]))
        expected = np.random.normal(0, np.sqrt(1. / fan_in), shape).astype(np.float32)
        np.testing.assert_array_equal(getattr(link, name).W.array, expected, err_msg=name)
    x = np.random.randn(2, 3, 5, 5).astype(np.float32)
    y = link(x)
    assert y.shape == (2, 2 + 3 + 2 + 2, 5, 5) and (y.array >= 0).all()
    out1 = np.maximum(np.einsum('nchw,oc->nohw', x, link.conv1.W.array[:, :, 0, 0])
                      + link.conv1.b.array[None, :, None, None], 0)
    np.testing.assert_allclose(y.array[:, :2], out1, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize('pooltype', ['max', 'avg'])
def test_inceptionbn(pooltype):
    link = L.InceptionBN(3, 2, 2, 3, 2, 2, pooltype, proj_pool=2)
    y = link(np.random.randn(2, 3, 4, 4).astype(np.float32))
    assert y.shape == (2, 2 + 3 + 2 + 2, 4, 4)
    strided = L.InceptionBN(3, 0, 2, 3, 2, 2, pooltype, stride=2)
    with minichainer.using_config('train', False):
        assert strided(np.ones((1, 3, 4, 4), np.float32)).shape == (1, 3 + 2 + 3, 2, 2)
    assert not hasattr(strided, 'conv1') and not hasattr(strided, 'poolp')


def test_inceptionbn_bad_arguments():
    with pytest.raises(ValueError, match='pooltype'):
        L.InceptionBN(3, 2, 2, 3, 2, 2, 'sum', proj_pool=2)
    with pytest.raises(ValueError, match='stride'):
        L.InceptionBN(3, 2, 2, 3, 2, 2, 'max', proj_pool=2, stride=2)


def test_serialization(tmp_path):
    _util.check_npz_round_trip(lambda: L.Inception(2, 1, 1, 1, 1, 1, 1), tmp_path)
    _util.check_npz_round_trip(lambda: L.InceptionBN(2, 1, 1, 1, 1, 1, 'max', 1),
                               tmp_path)
