import numpy
import pytest

import minichainer
import minichainer.functions as F
from minichainer import gradient_check
from minichainer.utils import type_check


def _resize_reference(x, out_H, out_W, mode, align_corners):
    n, c, H, W = x.shape
    y = numpy.empty((n, c, out_H, out_W), numpy.float64)
    for i in range(out_H):
        for j in range(out_W):
            if mode == 'nearest':
                v = min(int(numpy.floor(i * H / out_H)), H - 1)
                u = min(int(numpy.floor(j * W / out_W)), W - 1)
                y[:, :, i, j] = x[:, :, v, u]
                continue
            if align_corners:
                fv = i * (H - 1) / (out_H - 1) if out_H > 1 else 0.0
                fu = j * (W - 1) / (out_W - 1) if out_W > 1 else 0.0
            else:
                fv = max((i + 0.5) * H / out_H - 0.5, 0)
                fu = max((j + 0.5) * W / out_W - 0.5, 0)
            v0, u0 = int(fv), int(fu)
            wv, wu = fv - v0, fu - u0
            v1, u1 = min(v0 + 1, H - 1), min(u0 + 1, W - 1)
            y[:, :, i, j] = ((1 - wv) * (1 - wu) * x[:, :, v0, u0]
                             + (1 - wv) * wu * x[:, :, v0, u1]
                             + wv * (1 - wu) * x[:, :, v1, u0]
                             + wv * wu * x[:, :, v1, u1])
    return y


@pytest.mark.parametrize('in_hw, out_hw', [((4, 5), (7, 3)), ((3, 3), (3, 3)),
                                           ((2, 4), (1, 8)), ((5, 4), (2, 2))])
@pytest.mark.parametrize('mode, align_corners', [('bilinear', True), ('bilinear', False),
                                                 ('nearest', True)])
def test_resize_images(in_hw, out_hw, mode, align_corners):
    x = numpy.asarray(numpy.random.uniform(-1, 1, (2, 3) + in_hw), dtype=numpy.float32)
    y = F.resize_images(x, out_hw, mode=mode, align_corners=align_corners)
    expected = _resize_reference(x, out_hw[0], out_hw[1], mode, align_corners)
    assert y.dtype == numpy.float32
    assert y.shape == (2, 3) + out_hw
    numpy.testing.assert_allclose(y.array, expected, atol=1e-5, rtol=1e-5)

    def f(x):
        return F.resize_images(x, out_hw, mode=mode, align_corners=align_corners)
    gy = numpy.asarray(numpy.random.uniform(-1, 1, y.shape), dtype=numpy.float32)
    ggx = numpy.asarray(numpy.random.uniform(-1, 1, x.shape), dtype=numpy.float32)
    tol = {'atol': 1e-3, 'rtol': 1e-3}
    gradient_check.check_backward(f, x, gy, eps=1e-2, **tol)
    gradient_check.check_double_backward(f, x, gy, ggx, eps=1e-2, **tol)


def test_resize_images_upsample_values():
    x = numpy.array([[[[0., 1.], [2., 3.]]]], numpy.float32)
    y = F.resize_images(x, (3, 3))
    numpy.testing.assert_allclose(
        y.array[0, 0], [[0., 0.5, 1.], [1., 1.5, 2.], [2., 2.5, 3.]])


@pytest.mark.parametrize('x', [numpy.zeros((1, 1, 2, 2), numpy.float64),
                               numpy.zeros((1, 2, 2), numpy.float32)])
def test_resize_images_invalid_type(x):
    with pytest.raises(type_check.InvalidType):
        F.resize_images(x, (3, 3))


def test_resize_images_bad_mode():
    with pytest.raises(ValueError, match='mode'):
        F.resize_images(numpy.zeros((1, 1, 2, 2), numpy.float32), (3, 3), mode='cubic')


@pytest.mark.parametrize('in_hw, out_hw', [((33, 33), (257, 257)), ((16, 12), (8, 5)),
                                           ((5, 7), (9, 4))])
@pytest.mark.parametrize('align_corners', [True, False])
def test_resize_images_products_equal_the_gathered_taps(in_hw, out_hw, align_corners):
    # finite inputs go through the interpolation matrices; the result (and the gradient)
    # is the two-tap gather (and its per-position adds) to float32 rounding
    from minichainer.functions.array import resize_images as module
    rng = numpy.random.RandomState(0)
    x = rng.uniform(-1, 1, (2, 3) + in_hw).astype(numpy.float32)
    gy = rng.uniform(-1, 1, (2, 3) + out_hw).astype(numpy.float32)
    rows, cols = module._interpolators(out_hw, in_hw, 'bilinear', align_corners,
                                       numpy.float32, numpy)
    expect = rows.gather(cols.gather(x, -1), -2)
    numpy.testing.assert_allclose(module._interpolate(x, rows, cols), expect,
                                  rtol=1e-5, atol=1e-6)
    expect = cols.scatter(rows.scatter(gy, -2), -1)
    numpy.testing.assert_allclose(module._interpolate_grad(gy, rows, cols), expect,
                                  rtol=1e-5, atol=1e-5)
    y = F.resize_images(x, out_hw, align_corners=align_corners)
    numpy.testing.assert_allclose(
        y.array, _resize_reference(x, out_hw[0], out_hw[1], 'bilinear', align_corners),
        rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize('bad', [numpy.inf, numpy.nan])
def test_resize_images_keeps_a_non_finite_value_local(bad):
    # an inf or NaN reaches only the outputs that interpolate it, as with the gathered
    # taps (a product with the interpolation matrix would spread it over a whole row
    # and column: 0 * inf is NaN)
    from minichainer.functions.array import resize_images as module
    rows, cols = module._interpolators((15, 15), (8, 8), 'bilinear', True, numpy.float32,
                                       numpy)
    x = numpy.zeros((1, 1, 8, 8), numpy.float32)
    x[0, 0, 2, 3] = bad
    x_var = minichainer.Variable(x)
    with numpy.errstate(invalid='ignore'):   # 0 * inf, in the taps of weight 0
        y = F.resize_images(x_var, (15, 15))
        expect = rows.gather(cols.gather(x, -1), -2)
    assert (numpy.isfinite(y.array) == numpy.isfinite(expect)).all()
    assert numpy.isfinite(y.array).sum() >= 15 * 15 - 16
    gy = numpy.zeros((1, 1, 15, 15), numpy.float32)
    gy[0, 0, 4, 6] = bad
    y.grad = gy
    with numpy.errstate(invalid='ignore'):
        y.backward()
        expect = cols.scatter(rows.scatter(gy, -2), -1)
    assert (numpy.isfinite(x_var.grad) == numpy.isfinite(expect)).all()
    assert numpy.isfinite(x_var.grad).sum() >= 8 * 8 - 4
