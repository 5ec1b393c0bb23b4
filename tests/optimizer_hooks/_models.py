"""A tiny two-parameter link for hook tests."""
import numpy

import minichainer as mc


class Pair(mc.Link):
    def __init__(self, seed=0):
        super().__init__()
        rng = numpy.random.default_rng(seed)
        with self.init_scope():
            self.a = mc.Parameter(rng.standard_normal((3, 4)).astype(numpy.float32))
            self.b = mc.Parameter(rng.standard_normal(5).astype(numpy.float32))

    def set_grads(self, seed=1, scale=1.0):
        rng = numpy.random.default_rng(seed)
        for name, p in self.namedparams():
            p.grad = (rng.standard_normal(p.shape) * scale).astype(numpy.float32)
        return {name: p.grad.copy() for name, p in self.namedparams()}
