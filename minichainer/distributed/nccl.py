"""`chainermn.nccl`: NCCL is a CUDA library, so it is never available here.

`_available` is False, as ChainerMN's module reports without CuPy's NCCL; any other
name raises AttributeError (so `from chainermn.nccl import X` is an ImportError and
`hasattr` is False) saying why.
"""

_available = False


def __getattr__(name):
    if name.startswith('__'):
        raise AttributeError(name)
    raise AttributeError(
        'chainermn.nccl.{}: NCCL is not available in minichainer (it needs CUDA and '
        'CuPy); use a CPU communicator such as create_communicator(\'naive\')'.format(name))
