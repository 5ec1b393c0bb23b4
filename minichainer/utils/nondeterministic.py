"""`chainer.utils.nondeterministic`: flag code whose results may vary run to run."""
import warnings

from minichainer import configuration


def nondeterministic(f_name):
    """Warn that `f_name` may be non-deterministic, when
    `chainer.config.warn_nondeterministic` is True (default False)."""
    if configuration.config.warn_nondeterministic:
        warnings.warn('Potentially non-deterministic code is being executed while '
                      'config.warn_nondeterministic set. Source: ' + f_name)
