"""Random convolution cases whose outputs and gradients were recorded from the
implementation before the N-D engine rewrite (``conv_previous.npz``).

``python -m tests.functions.connection.conv_cases OUT.npz`` (with ``PYTHONPATH`` at a
checkout) records every case with that checkout's minichainer; the file in
``fixtures/`` was made at commit 8652407, before the rewrite.
"""
import sys

import numpy

# (name, function, x shape, W shape, with bias, keyword arguments)
CASES = [
    ('c2d_basic', 'convolution_2d', (2, 3, 5, 4), (4, 3, 3, 2), True, {'pad': 1}),
    ('c2d_stride_cover', 'convolution_2d', (2, 2, 7, 6), (3, 2, 3, 2), False,
     {'stride': (2, 3), 'pad': (1, 0), 'cover_all': True}),
    ('c2d_dilate_groups', 'convolution_2d', (2, 4, 7, 7), (6, 2, 3, 2), True,
     {'pad': (2, 1), 'dilate': (2, 3), 'groups': 2}),
    ('c2d_dilate_cover', 'convolution_2d', (1, 3, 8, 9), (2, 3, 2, 3), True,
     {'stride': 2, 'dilate': 2, 'cover_all': True}),
    ('c2d_1x1', 'convolution_2d', (3, 4, 3, 5), (5, 4, 1, 1), True, {}),
    ('c2d_groups4', 'convolution_2d', (2, 8, 5, 5), (8, 2, 3, 3), False,
     {'stride': 2, 'pad': 1, 'groups': 4}),
    ('c1d', 'convolution_nd', (2, 3, 9), (4, 3, 3), True,
     {'stride': 2, 'pad': 1, 'dilate': 2}),
    ('c1d_cover', 'convolution_nd', (2, 4, 8), (4, 2, 3), False,
     {'stride': 3, 'cover_all': True, 'groups': 2}),
    ('c2d_nd', 'convolution_nd', (2, 3, 6, 5), (2, 3, 3, 2), True,
     {'stride': (1, 2), 'pad': (1, 0)}),
    ('c3d', 'convolution_nd', (1, 2, 5, 4, 6), (3, 2, 2, 3, 2), True,
     {'stride': (2, 1, 2), 'pad': (1, 1, 0), 'dilate': (1, 1, 2)}),
    ('c3d_cover_groups', 'convolution_nd', (2, 4, 4, 5, 4), (4, 2, 2, 2, 3), False,
     {'stride': 2, 'cover_all': True, 'groups': 2}),
    ('d2d_basic', 'deconvolution_2d', (2, 3, 4, 3), (3, 2, 3, 3), True,
     {'stride': 2, 'pad': 1}),
    ('d2d_outsize', 'deconvolution_2d', (1, 2, 3, 4), (2, 3, 3, 2), True,
     {'stride': (2, 3), 'pad': (1, 0), 'outsize': (6, 11)}),
    ('d2d_dilate_groups', 'deconvolution_2d', (2, 4, 3, 3), (4, 2, 2, 3), False,
     {'stride': 1, 'pad': 1, 'dilate': (2, 1), 'groups': 2}),
    ('d1d', 'deconvolution_nd', (2, 3, 5), (3, 2, 3), True, {'stride': 2, 'pad': 1}),
    ('d3d', 'deconvolution_nd', (1, 2, 3, 2, 3), (2, 3, 2, 2, 2), True,
     {'stride': (2, 1, 2), 'pad': (0, 1, 1)}),
    ('d3d_outsize_groups', 'deconvolution_nd', (1, 4, 2, 3, 2), (4, 1, 3, 2, 2), False,
     {'stride': 2, 'outsize': (6, 6, 4), 'groups': 2}),
    ('depthwise', 'depthwise_convolution_2d', (2, 3, 5, 5), (2, 3, 3, 3), True,
     {'stride': 2, 'pad': 1}),
    ('dilated', 'dilated_convolution_2d', (2, 3, 7, 6), (2, 3, 3, 2), True,
     {'pad': 2, 'dilate': 2}),
]


def run_case(F, minichainer, case, dtype=numpy.float64):
    """Return {output name: array} for one case: y, then the gradients for a random gy."""
    name, fname, xs, ws, with_bias, kwargs = case
    rng = numpy.random.RandomState(sum(map(ord, name)))
    x = minichainer.Variable(rng.uniform(-1, 1, xs).astype(dtype))
    W = minichainer.Variable(rng.uniform(-1, 1, ws).astype(dtype))
    args = [x, W]
    if with_bias:
        if fname == 'depthwise_convolution_2d':
            n_out = ws[0] * ws[1]
        elif fname.startswith('deconvolution'):
            n_out = ws[1] * kwargs.get('groups', 1)
        else:
            n_out = ws[0]
        args.append(minichainer.Variable(rng.uniform(-1, 1, n_out).astype(dtype)))
    y = getattr(F, fname)(*args, **kwargs)
    y.grad = rng.uniform(-1, 1, y.shape).astype(dtype)
    y.backward()
    out = {'y': y.array, 'gx': x.grad, 'gW': W.grad}
    if with_bias:
        out['gb'] = args[2].grad
    return out


def main(path):
    import minichainer
    import minichainer.functions as F
    arrays = {}
    for case in CASES:
        for key, value in run_case(F, minichainer, case).items():
            arrays['{}/{}'.format(case[0], key)] = numpy.asarray(value)
    numpy.savez_compressed(path, **arrays)


if __name__ == '__main__':
    main(sys.argv[1])
