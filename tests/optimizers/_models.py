"""Tiny links for optimizer tests (mirroring Linear's W/b layout)."""
import numpy

import minichainer as mc


class Lin(mc.Link):
    def __init__(self, n_in, n_out, rng, dtype=numpy.float32):
        super().__init__()
        with self.init_scope():
            self.W = mc.Parameter(rng.standard_normal((n_out, n_in)).astype(dtype))
            self.b = mc.Parameter(rng.standard_normal(n_out).astype(dtype))


class MLP(mc.Chain):
    def __init__(self, seed=0, dtype=numpy.float32, sizes=(3, 4, 2)):
        super().__init__()
        rng = numpy.random.default_rng(seed)
        with self.init_scope():
            self.l1 = Lin(sizes[0], sizes[1], rng, dtype)
            self.l2 = Lin(sizes[1], sizes[2], rng, dtype)


def grads_for(model, step, seed=1):
    """Deterministic gradients for ``step``, keyed by parameter path."""
    rng = numpy.random.default_rng(seed * 1000 + step)
    return {name: rng.standard_normal(p.shape).astype(p.dtype)
            for name, p in model.namedparams()}


def set_grads(model, grads):
    for name, p in model.namedparams():
        p.grad = grads[name].copy()
