"""Average the persistent arrays of a model over the ranks (`AllreducePersistent`)."""
from minichainer import backend
from minichainer.training import extension


class AllreducePersistent(extension.Extension):
    """Replace every float persistent array of `model` (e.g. BatchNormalization's
    `avg_mean`/`avg_var`) by its mean over the ranks, once per epoch by default, so
    that evaluation on every rank uses the same statistics.

    Args:
        model (Link): The model.
        comm: The communicator.
    """

    trigger = 1, 'epoch'
    priority = extension.PRIORITY_WRITER + 1  # before the evaluators

    def __init__(self, model, comm):
        self.model = model
        self.comm = comm

    def __call__(self, trainer=None):
        for _, link in sorted(self.model.namedlinks(), key=lambda x: x[0]):
            for name in sorted(link._persistent):
                value = getattr(link, name)
                if isinstance(value, backend.get_array_types()) and \
                        value.dtype.kind == 'f':  # NumPy or GPU (staged) arrays
                    total = self.comm.allreduce(value)
                    backend.get_array_module(value).multiply(
                        total, 1.0 / self.comm.size, out=value, casting='same_kind')
