"""A trainer extension writing a grid of generated digits as a PNG (needs Pillow)."""
import os

import numpy

import minichainer as chainer
from minichainer import training

_warned = False


def _pillow():
    global _warned
    try:
        from PIL import Image
    except ImportError:
        if not _warned:
            print('preview images are skipped: Pillow is not installed '
                  '(pip install minichainer[examples])')
            _warned = True
        return None
    return Image


def out_generated_image(gen, rows, cols, seed, dst, scale=4):
    """Make an extension that saves ``rows x cols`` samples from fixed noise.

    The noise comes from its own ``RandomState(seed)``, so every preview shows the
    same latent points and numpy's global generator (hence training) is untouched.
    """
    @training.make_extension()
    def make_image(trainer):
        Image = _pillow()
        if Image is None:
            return
        n = rows * cols
        z = numpy.random.RandomState(seed).uniform(
            -1, 1, (n, gen.n_hidden)).astype(numpy.float32)
        with chainer.using_config('train', False), chainer.no_backprop_mode():
            x = gen(gen.xp.asarray(z))
        x = chainer.backends.cuda.to_cpu(x.array)
        x = numpy.asarray(numpy.clip(x * 255, 0, 255), dtype=numpy.uint8)
        # one dark-grey pixel of border around every image keeps them apart
        x = numpy.pad(x[:, 0], ((0, 0), (1, 1), (1, 1)), constant_values=64)
        _, h, w = x.shape
        grid = x.reshape(rows, cols, h, w).transpose(0, 2, 1, 3).reshape(rows * h, cols * w)
        grid = numpy.kron(grid, numpy.ones((scale, scale), numpy.uint8))
        directory = os.path.join(trainer.out, dst)
        os.makedirs(directory, exist_ok=True)
        path = os.path.join(directory, 'image{:0>6}.png'.format(trainer.updater.iteration))
        Image.fromarray(grid).save(path)

    return make_image
