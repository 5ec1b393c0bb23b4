"""Turn the BatchNormalization links of a model into multi-node ones
(`create_mnbn_model`)."""
import copy

from minichainer import link as link_module
from minichainer.distributed.links.batch_normalization import MultiNodeBatchNormalization
from minichainer.links.normalization.batch_normalization import BatchNormalization


def create_mnbn_model(link, comm, communication_backend='auto'):
    """Return a deep copy of `link` in which every
    [`BatchNormalization`][minichainer.links.normalization.batch_normalization.BatchNormalization]
    (with the default axis) is replaced by a `MultiNodeBatchNormalization` with the same parameters
    and statistics.

    Args:
        link (Link): The model (not modified).
        comm: The communicator.
        communication_backend (str): Passed to MultiNodeBatchNormalization.
    """
    if isinstance(link, BatchNormalization) and not isinstance(
            link, MultiNodeBatchNormalization):
        if link.avg_mean is None or link.axis is not None or link.avg_mean.ndim != 1:
            raise ValueError(
                'create_mnbn_model: only BatchNormalization links with a size and the '
                'default axis can be converted, got avg_mean {} and axis {}'.format(
                    None if link.avg_mean is None else link.avg_mean.shape, link.axis))
        mnbn = MultiNodeBatchNormalization(
            link.avg_mean.shape[0], comm, decay=link.decay, eps=link.eps,
            dtype=link.avg_mean.dtype, use_gamma=link.gamma is not None,
            use_beta=link.beta is not None, communication_backend=communication_backend)
        mnbn.copyparams(link)
        mnbn.N = link.N
        return mnbn
    if isinstance(link, link_module.Chain):
        new_link = copy.deepcopy(link)
        for name in sorted(link._children):
            child = create_mnbn_model(getattr(link, name), comm, communication_backend)
            delattr(new_link, name)
            with new_link.init_scope():
                setattr(new_link, name, child)
        return new_link
    if isinstance(link, link_module.ChainList):
        new_link = copy.deepcopy(link)
        for i, child in enumerate(link):
            new_link[i] = create_mnbn_model(child, comm, communication_backend)
        return new_link
    return copy.deepcopy(link)
