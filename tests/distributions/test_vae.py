"""A tiny VAE trained with D.Normal, D.Independent, D.Bernoulli and kl_divergence."""
import numpy as np

import minichainer as chainer
import minichainer.distributions as D
import minichainer.functions as F
import minichainer.links as L
from minichainer import optimizers


class Encoder(chainer.Chain):
    def __init__(self, n_in, n_latent):
        super().__init__()
        with self.init_scope():
            self.mu = L.Linear(n_in, n_latent)
            self.ln_sigma = L.Linear(n_in, n_latent)

    def forward(self, x):
        return D.Independent(D.Normal(loc=self.mu(x), log_scale=self.ln_sigma(x)))


class Decoder(chainer.Chain):
    def __init__(self, n_latent, n_out):
        super().__init__()
        with self.init_scope():
            self.linear = L.Linear(n_latent, n_out)

    def forward(self, z):
        return D.Independent(D.Bernoulli(logit=self.linear(z)), reinterpreted_batch_ndims=1)


class VAE(chainer.Chain):
    def __init__(self, n_in=6, n_latent=2):
        super().__init__()
        self.n_latent = n_latent
        with self.init_scope():
            self.encoder = Encoder(n_in, n_latent)
            self.decoder = Decoder(n_latent, n_in)

    def prior(self):
        zeros = np.zeros(self.n_latent, np.float32)
        return D.Independent(D.Normal(zeros, np.ones(self.n_latent, np.float32)),
                             reinterpreted_batch_ndims=1)

    def loss(self, x):
        q_z = self.encoder(x)
        z = q_z.sample()
        p_x = self.decoder(z)
        reconstruction = F.mean(p_x.log_prob(x))
        kl = F.mean(chainer.kl_divergence(q_z, self.prior()))
        return -(reconstruction - kl)


def test_vae_training_reduces_loss():
    rng = np.random.RandomState(0)
    prototypes = (rng.uniform(size=(2, 6)) > 0.5).astype(np.float32)
    x = prototypes[rng.randint(0, 2, size=16)]
    np.random.seed(0)
    model = VAE()
    optimizer = optimizers.Adam(alpha=0.05)
    optimizer.setup(model)

    q_z = model.encoder(x)
    assert q_z.batch_shape == (16,) and q_z.event_shape == (2,)
    first = float(model.loss(x).array)
    for _ in range(40):
        loss = model.loss(x)
        model.cleargrads()
        loss.backward()
        for name, param in model.namedparams():
            assert param.grad is not None, name
            assert np.isfinite(param.grad).all(), name
        optimizer.update()
    np.random.seed(1)
    last = np.mean([float(model.loss(x).array) for _ in range(5)])
    assert np.isfinite(first) and last < first - 0.5
