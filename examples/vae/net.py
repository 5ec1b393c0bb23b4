"""A variational auto-encoder with a Gaussian latent and a Bernoulli decoder."""
import minichainer as chainer
import minichainer.functions as F
import minichainer.links as L


class VAE(chainer.Chain):
    """Encoder ``x → (mu, ln_var)``, decoder ``z → logits of x``."""

    def __init__(self, n_in, n_latent, n_h):
        super().__init__()
        self.n_latent = n_latent
        with self.init_scope():
            self.le1 = L.Linear(n_in, n_h)
            self.le2_mu = L.Linear(n_h, n_latent)
            self.le2_ln_var = L.Linear(n_h, n_latent)
            self.ld1 = L.Linear(n_latent, n_h)
            self.ld2 = L.Linear(n_h, n_in)

    def forward(self, x, sigmoid=True):
        """Reconstruct ``x`` through the mean of its posterior."""
        return self.decode(self.encode(x)[0], sigmoid)

    def encode(self, x):
        h1 = F.tanh(self.le1(x))
        return self.le2_mu(h1), self.le2_ln_var(h1)

    def decode(self, z, sigmoid=True):
        h1 = F.tanh(self.ld1(z))
        h2 = self.ld2(h1)
        return F.sigmoid(h2) if sigmoid else h2

    def get_loss_func(self, beta=1.0, k=1):
        """Return the negative ELBO as a function of a batch ``x``.

        Args:
            beta (float): Weight of the KL term (1 is the plain ELBO).
            k (int): Number of latent samples per example for the reconstruction term.

        The returned function reports ``rec_loss`` and ``loss`` for this link, so the
        trainer shows ``main/rec_loss``, ``main/loss`` (and ``validation/main/...``
        when it is given to an Evaluator as ``eval_func``).
        """
        def lf(x):
            mu, ln_var = self.encode(x)
            batchsize = len(mu)
            rec_loss = 0
            for _ in range(k):
                z = F.gaussian(mu, ln_var)   # reparameterisation: mu + exp(ln_var/2) * eps
                rec_loss += F.bernoulli_nll(x, self.decode(z, sigmoid=False)) / (k * batchsize)
            kl = F.gaussian_kl_divergence(mu, ln_var) / batchsize
            loss = rec_loss + beta * kl
            chainer.report({'rec_loss': rec_loss, 'kl': kl, 'loss': loss}, observer=self)
            return loss
        return lf
