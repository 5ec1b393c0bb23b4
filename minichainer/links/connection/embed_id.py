"""The word embedding layer `EmbedID`."""
from minichainer.initializers import normal
from minichainer import link
from minichainer.links._check import check_size
from minichainer import variable

from minichainer.functions.connection import embed_id as _embed_id


class EmbedID(link.Link):
    """Look up rows of `W` (shape `(in_size, out_size)`) by integer IDs.

    Args:
        in_size (int): Vocabulary size.
        out_size (int): Embedding size.
        initialW: Initializer for W (default `Normal(1.0)`).
        ignore_label (int or None): ID that maps to a zero vector.
    """

    ignore_label = None

    def __init__(self, in_size, out_size, initialW=None, ignore_label=None):
        super().__init__()
        check_size('EmbedID', 'in_size', in_size)
        check_size('EmbedID', 'out_size', out_size)
        self.ignore_label = ignore_label
        with self.init_scope():
            if initialW is None:
                initialW = normal.Normal(1.0)
            self.W = variable.Parameter(initialW, (in_size, out_size))

    @classmethod
    def from_params(cls, W, ignore_label=None):
        """Build an EmbedID whose `W` starts as a copy of `W` (shape
        `(in_size, out_size)`)."""
        W = variable.as_array(W)
        in_size, out_size = W.shape
        return cls(in_size, out_size, initialW=W, ignore_label=ignore_label)

    @property
    def printable_specs(self):
        yield 'in_size', self.W.shape[0]
        yield 'out_size', self.W.shape[1]
        yield 'ignore_label', self.ignore_label

    def forward(self, x):
        """Embed the integer array `x`; the result has shape `x.shape + (out_size,)`."""
        return _embed_id.embed_id(x, self.W, ignore_label=self.ignore_label)
