"""Data-parallel optimizers (`chainermn.optimizers`)."""


class _MultiNodeOptimizer:
    """Wraps an optimizer so that every update uses gradients averaged over the ranks.

    The first `update` (and any update after the set of initialized parameters
    changed, e.g. after lazily initialized links got their shapes) only broadcasts rank
    0's parameters, so all ranks start from the same model; every other update averages
    the gradients with `communicator.multi_node_mean_grad` and then runs the wrapped
    optimizer. Every other attribute (`lr`, `t`, `serialize`, hooks, ...) is the
    wrapped optimizer's.
    """

    def __init__(self, actual_optimizer, communicator, zero_fill):
        object.__setattr__(self, 'communicator', communicator)
        object.__setattr__(self, 'actual_optimizer', actual_optimizer)
        object.__setattr__(self, 'target_params', [])
        object.__setattr__(self, 'zero_fill', zero_fill)
        object.__setattr__(self, 'needs_broadcast', True)

    def update(self, lossfun=None, *args, **kwds):
        """Compute gradients with `lossfun` (if given), then broadcast or average and
        update (see the class docstring)."""
        actual = self.actual_optimizer
        target = actual.target
        if target is None:
            raise RuntimeError(
                'multi-node optimizer: no target link; call setup(link) before update()')
        if lossfun is not None:
            loss = lossfun(*args, **kwds)
            if getattr(actual, '_use_cleargrads', True):
                target.cleargrads()
            else:
                target.zerograds()
            scale = getattr(actual, '_loss_scale', None)
            if scale is None:
                loss.backward()
            else:
                loss.backward(loss_scale=scale)
            del loss
        if self.is_changed(target):
            self.communicator.bcast_data(target)
        else:
            self.communicator.multi_node_mean_grad(target, self.zero_fill)
            actual.update(None, *args, **kwds)

    def is_changed(self, target):
        """True when the initialized parameters differ from the last call's (and on the
        first call, unless a checkpointer cleared `needs_broadcast`)."""
        previous = self.target_params
        current = [(name, param.array is not None)
                   for name, param in sorted(target.namedparams(), key=lambda x: x[0])]
        object.__setattr__(self, 'target_params', current)
        if not previous and not self.needs_broadcast:
            object.__setattr__(self, 'needs_broadcast', True)
            return False
        return current != previous

    def setup(self, link):
        """Set up the wrapped optimizer on `link`; returns this wrapper."""
        self.actual_optimizer.setup(link)
        object.__setattr__(self, 'target_params', [])
        return self

    def __getattr__(self, name):
        if name.startswith('__') or name in ('actual_optimizer', 'communicator'):
            raise AttributeError(name)  # copy/pickle protocols, half-built objects
        return getattr(self.actual_optimizer, name)

    def __setattr__(self, name, value):
        if name == 'needs_broadcast':
            object.__setattr__(self, name, value)
        else:
            setattr(self.actual_optimizer, name, value)


def create_multi_node_optimizer(actual_optimizer, communicator, double_buffering=False,
                                zero_fill=True):
    """Wrap `actual_optimizer` so that it averages gradients across the ranks.

    Args:
        actual_optimizer: The optimizer (e.g. `optimizers.Adam()`).
        communicator: A communicator from `create_communicator`.
        double_buffering (bool): ChainerMN's overlap of communication with the next
            step, which needs the `pure_nccl` GPU communicator: True raises.
        zero_fill (bool): Initialized parameters without a gradient (unused in this
            step) take part as zeros; when False they are skipped.

    Returns:
        The multi-node optimizer.

    Raises:
        ValueError: `double_buffering` is True.
    """
    if double_buffering:
        raise ValueError(
            'create_multi_node_optimizer: double_buffering needs the GPU-only '
            "'pure_nccl' communicator; this communicator ({}) does not support it"
            .format(type(communicator).__name__))
    return _MultiNodeOptimizer(actual_optimizer, communicator, zero_fill)
