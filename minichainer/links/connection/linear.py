"""The fully-connected layer `Linear`."""
from minichainer import link
from minichainer.links.connection import parameter_setup
from minichainer.links._check import check_size
from minichainer import variable

from minichainer.functions.connection import linear as _linear


class Linear(link.Link):
    """Fully-connected layer: `y = x W^T + b`.

    Args:
        in_size (int or None): Input dimension. `None` defers the creation of `W` to
            the first call, where it becomes the size of one input example.
            `Linear(n)` means `Linear(None, n)`.
        out_size (int): Output dimension.
        nobias (bool): Leave out the bias `b` (then `b` is None).
        initialW: Initializer, array or scalar for `W` (default: LeCunNormal).
        initial_bias: Initializer, array or scalar for `b` (default: 0).

    Attributes:
        W (Parameter): Weight of shape `(out_size, in_size)`.
        b (Parameter): Bias of shape `(out_size,)`.
    """

    def __init__(self, in_size, out_size=None, nobias=False, initialW=None,
                 initial_bias=None):
        super().__init__()
        if out_size is None:
            in_size, out_size = None, in_size
        check_size('Linear', 'in_size', in_size, allow_none=True)
        if not (isinstance(out_size, tuple) and all(
                isinstance(n, int) and n >= 0 for n in out_size)):
            # (As Chainer, a tuple of sizes is accepted here: the bias takes that shape,
            # and the weight cannot be initialized; see _initialize_params.)
            check_size('Linear', 'out_size', out_size)
        self.in_size = in_size
        self.out_size = out_size
        self.nobias = nobias
        parameter_setup.init_weight_and_bias(self, initialW, in_size, nobias, initial_bias,
                                             out_size)

    @property
    def printable_specs(self):
        yield 'in_size', self.in_size
        yield 'out_size', self.out_size
        yield 'nobias', self.b is None

    def _initialize_params(self, in_size):
        if isinstance(self.out_size, tuple):
            raise TypeError('Linear: out_size must be an int to initialize W, got {!r}'
                            .format(self.out_size))
        self.W.initialize((self.out_size, in_size))

    @classmethod
    def from_params(cls, W, b=None, nobias=False):
        """Build a Linear whose W (and b) start as copies of the given arrays/Variables.

        Raises:
            ValueError: `b` does not have `W.shape[0]` elements.
        """
        W = variable.as_array(W)
        out_size, in_size = W.shape
        if b is not None:
            b = variable.as_array(b)
            if b.size != out_size:
                raise ValueError(
                    'Linear.from_params: b must have {} elements (W.shape[0]), got {}'
                    .format(out_size, b.size))
        return cls(in_size, out_size, nobias, initialW=W, initial_bias=b)

    def forward(self, x, n_batch_axes=1):
        """Apply the layer; axes before `n_batch_axes` are batch axes."""
        if self.W.array is None:
            in_size = 1
            for n in x.shape[n_batch_axes:]:
                in_size *= n
            self._initialize_params(in_size)
        return _linear.linear(x, self.W, self.b, n_batch_axes=n_batch_axes)
