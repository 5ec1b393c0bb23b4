"""`SpectralNormalization`: divide a link's weight by its largest singular value
(Miyato et al., https://arxiv.org/abs/1802.05957)."""
import numpy

from minichainer import configuration
from minichainer import link_hook
from minichainer import variable
from minichainer.functions.array.transpose import transpose
from minichainer.functions.connection.linear import linear
from minichainer.functions.math.sum import sum as f_sum


def _l2normalize(v, eps):
    return v / (numpy.linalg.norm(v) + eps)


def update_approximate_vectors(weight_matrix, u, n_power_iteration, eps):
    """Run `n_power_iteration` steps of power iteration; return `(u, v)` arrays."""
    w = variable.as_array(weight_matrix)
    v = None
    for _ in range(n_power_iteration):
        v = _l2normalize(u.dot(w), eps)
        u = _l2normalize(w.dot(v), eps)
    return u, v


def calculate_max_singular_value(weight_matrix, u, v):
    """`u^T W v` as a differentiable 0-dim Variable."""
    return f_sum(linear(u[None], transpose(weight_matrix)) * v)


class SpectralNormalization(link_hook.LinkHook):
    """Link hook replacing `W` by `W / sigma(W)` during each forward.

    The left singular vector estimate `u` (drawn from numpy's global RNG, as in
    Chainer) is registered on the link as the persistent `<weight_name>_u` and updated by
    power iteration in training mode.

    Args:
        n_power_iteration (int): Power iterations per forward (> 0).
        eps (float): Added to norms.
        use_gamma (bool): Learn a scale `gamma` initialized to the largest singular value.
        factor (float or None): Divide sigma by this value.
        weight_name (str): Name of the weight to normalize.
        name (str or None): Hook name.

    Raises:
        ValueError: `n_power_iteration` is not positive, or the link has no such weight.
    """

    name = 'SpectralNormalization'

    def __init__(self, n_power_iteration=1, eps=1e-6, use_gamma=False, factor=None,
                 weight_name='W', name=None):
        if n_power_iteration <= 0:
            raise ValueError('SpectralNormalization: n_power_iteration must be positive, '
                             'got {}'.format(n_power_iteration))
        self.n_power_iteration = n_power_iteration
        self.eps = eps
        self.use_gamma = use_gamma
        self.factor = factor
        self.weight_name = weight_name
        self.vector_name = weight_name + '_u'
        self._initialized = False
        self.axis = 0
        if name is not None:
            self.name = name

    def __enter__(self):
        raise NotImplementedError(
            'SpectralNormalization is not supposed to be used as a context manager; '
            'register it with link.add_hook')

    def __exit__(self, *args):
        raise NotImplementedError

    def added(self, link):
        if not hasattr(link, self.weight_name):
            raise ValueError('SpectralNormalization: the link has no weight {!r}'.format(
                self.weight_name))
        # imported here: a hook module does not load the links at its import
        from minichainer.links.connection.deconvolution_2d import Deconvolution2D
        from minichainer.links.connection.deconvolution_nd import DeconvolutionND
        if isinstance(link, (Deconvolution2D, DeconvolutionND)):
            self.axis = 1
        if getattr(link, self.weight_name).array is not None:
            self._prepare_parameters(link)

    def deleted(self, link):
        delattr(link, self.vector_name)
        if self.use_gamma:
            del link.gamma

    def forward_preprocess(self, cb_args):
        link = cb_args.link
        if not self._initialized:
            self._prepare_parameters(link, cb_args.args[0])
        self.original_weight = getattr(link, self.weight_name)
        setattr(link, self.weight_name, self.normalize_weight(link))

    def forward_postprocess(self, cb_args):
        setattr(cb_args.link, self.weight_name, self.original_weight)

    def _prepare_parameters(self, link, input_variable=None):
        if getattr(link, self.weight_name).array is None and input_variable is not None:
            link._initialize_params(input_variable.shape[1])
        W = getattr(link, self.weight_name)
        if W.shape[self.axis] == 0:
            raise ValueError('SpectralNormalization: {}.shape[{}] must be > 0'.format(
                self.weight_name, self.axis))
        u = link.xp.random.normal(size=(W.shape[self.axis],)).astype(dtype=W.dtype)
        setattr(link, self.vector_name, u)
        link.register_persistent(self.vector_name)
        if self.use_gamma:
            s = numpy.linalg.svd(self.reshape_W(W.array), compute_uv=False)
            with link.init_scope():
                link.gamma = variable.Parameter(numpy.asarray(s[0], dtype=W.dtype))
        self._initialized = True

    def normalize_weight(self, link):
        """Return `W / sigma` (times `gamma`) as a Variable; update `u` in training."""
        W = getattr(link, self.weight_name)
        u = getattr(link, self.vector_name)
        weight_matrix = self.reshape_W(W)
        if not getattr(configuration.config, 'in_recomputing', False):
            u, v = update_approximate_vectors(weight_matrix, u, self.n_power_iteration,
                                              self.eps)
        else:
            v = self.v
        sigma = calculate_max_singular_value(weight_matrix, u, v)
        if self.factor is not None:
            sigma /= self.factor
        if self.use_gamma:
            W = link.gamma * W / sigma
        else:
            W = W / sigma
        if not getattr(configuration.config, 'in_recomputing', False):
            self.v = v
            if configuration.config.train:
                numpy.copyto(getattr(link, self.vector_name), u)
        return W

    def reshape_W(self, W):
        """`W` as a 2-D matrix with the normalized axis first."""
        if self.axis != 0:
            axes = [self.axis] + [i for i in range(W.ndim) if i != self.axis]
            W = W.transpose(axes)
        if W.ndim == 2:
            return W
        return W.reshape(W.shape[0], -1)
