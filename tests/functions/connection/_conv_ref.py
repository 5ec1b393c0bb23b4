"""Naive loop references for convolution tests (independent of im2col)."""
import itertools

import numpy


def conv_ref(x, W, b, stride, pad, dilate, groups, cover_all=False):
    nd = x.ndim - 2
    n, c = x.shape[:2]
    oc, icg = W.shape[:2]
    ks = W.shape[2:]
    outs = []
    for d, k, s, p, di in zip(x.shape[2:], ks, stride, pad, dilate):
        dk = k + (k - 1) * (di - 1)
        if cover_all:
            outs.append((d + 2 * p - dk + s - 1) // s + 1)
        else:
            outs.append((d + 2 * p - dk) // s + 1)
    big = [d + 2 * p + s + (k - 1) * di for d, p, s, k, di in
           zip(x.shape[2:], pad, stride, ks, dilate)]
    xp = numpy.zeros((n, c) + tuple(big), dtype=numpy.float64)
    xp[(slice(None), slice(None)) + tuple(slice(p, p + d) for p, d in
                                          zip(pad, x.shape[2:]))] = x
    y = numpy.zeros((n, oc) + tuple(outs))
    ocg = oc // groups
    for g in range(groups):
        for o in range(g * ocg, (g + 1) * ocg):
            for kidx in itertools.product(*[range(k) for k in ks]):
                sl = tuple(slice(ki * di, ki * di + s * (out - 1) + 1, s)
                           for ki, di, s, out in zip(kidx, dilate, stride, outs))
                patch = xp[(slice(None), slice(g * icg, (g + 1) * icg)) + sl]
                w = W[(o, slice(None)) + kidx].astype(numpy.float64)
                y[:, o] += numpy.tensordot(patch, w, axes=([1], [0]))
    if b is not None:
        y += b.reshape((1, oc) + (1,) * nd)
    return y


def deconv_ref(x, W, b, stride, pad, outsize, dilate, groups):
    nd = x.ndim - 2
    n, c = x.shape[:2]
    ocg = W.shape[1]
    ks = W.shape[2:]
    oc = ocg * groups
    if outsize is None:
        outsize = [s * (d - 1) + (k - 1) * di + 1 - 2 * p for d, k, s, p, di in
                   zip(x.shape[2:], ks, stride, pad, dilate)]
    big = [o + 2 * p + s + (k - 1) * di for o, p, s, k, di in
           zip(outsize, pad, stride, ks, dilate)]
    y = numpy.zeros((n, oc) + tuple(big))
    icg = c // groups
    for g in range(groups):
        for ci in range(g * icg, (g + 1) * icg):
            for kidx in itertools.product(*[range(k) for k in ks]):
                sl = tuple(slice(ki * di, ki * di + s * (d - 1) + 1, s)
                           for ki, di, s, d in zip(kidx, dilate, stride, x.shape[2:]))
                for oo in range(ocg):
                    o = g * ocg + oo
                    y[(slice(None), o) + sl] += x[:, ci] * W[(ci, oo) + kidx]
    crop = tuple(slice(p, p + o) for p, o in zip(pad, outsize))
    y = y[(slice(None), slice(None)) + crop]
    if b is not None:
        y = y + b.reshape((1, oc) + (1,) * nd)
    return y
