"""`CUDAProfileHook`: NVTX ranges around each function (CUDA only)."""
from minichainer import function_hook


class CUDAProfileHook(function_hook.FunctionHook):
    """Mark each forward/backward call as an NVTX range for CUDA profilers.

    minichainer has no GPU backend: constructing this hook raises `RuntimeError`
    naming CUDA, as Chainer does on a machine without CUDA.
    """

    name = 'CUDAProfileHook'

    def __init__(self):
        raise RuntimeError(
            'CUDAProfileHook: requires CuPy with NVTX and a CUDA environment, which are '
            'not available in minichainer (CPU only)')
