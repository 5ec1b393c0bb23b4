"""Generator and discriminator of the digits GAN (a small DCGAN)."""
import numpy

import minichainer as chainer
import minichainer.functions as F
import minichainer.links as L


class Generator(chainer.Chain):
    """Maps a noise vector to a ``(1, size, size)`` image in [0, 1].

    A Linear layer makes a ``(ch, size/4, size/4)`` map, two stride-2
    deconvolutions double it twice (8x8 digits: 2 → 4 → 8; MNIST: 7 → 14 → 28).
    """

    def __init__(self, n_hidden, size=8, ch=64, wscale=0.02):
        super().__init__()
        if size % 4:
            raise ValueError('Generator: size must be a multiple of 4, got {}'.format(size))
        self.n_hidden = n_hidden
        self.ch = ch
        self.bottom = size // 4
        with self.init_scope():
            w = chainer.initializers.Normal(wscale)
            self.l0 = L.Linear(n_hidden, self.bottom * self.bottom * ch, initialW=w)
            self.dc1 = L.Deconvolution2D(ch, ch // 2, 4, 2, 1, initialW=w)
            self.dc2 = L.Deconvolution2D(ch // 2, 1, 4, 2, 1, initialW=w)
            self.bn0 = L.BatchNormalization(self.bottom * self.bottom * ch)
            self.bn1 = L.BatchNormalization(ch // 2)

    def make_hidden(self, batchsize):
        """Noise for ``batchsize`` images, uniform in [-1, 1) (numpy's global RNG)."""
        return numpy.random.uniform(-1, 1, (batchsize, self.n_hidden)).astype(numpy.float32)

    def forward(self, z):
        h = F.relu(self.bn0(self.l0(z)))
        h = F.reshape(h, (len(z), self.ch, self.bottom, self.bottom))
        h = F.relu(self.bn1(self.dc1(h)))
        return F.sigmoid(self.dc2(h))


class Discriminator(chainer.Chain):
    """Scores an image: large for real digits, small for generated ones (a logit)."""

    def __init__(self, ch=64, wscale=0.02):
        super().__init__()
        with self.init_scope():
            w = chainer.initializers.Normal(wscale)
            self.c0 = L.Convolution2D(1, ch // 2, 3, 1, 1, initialW=w)
            self.c1 = L.Convolution2D(ch // 2, ch, 4, 2, 1, initialW=w)
            self.bn1 = L.BatchNormalization(ch)
            self.l2 = L.Linear(None, 1, initialW=w)

    def forward(self, x):
        h = F.leaky_relu(self.c0(x))
        h = F.leaky_relu(self.bn1(self.c1(h)))
        return self.l2(h)
