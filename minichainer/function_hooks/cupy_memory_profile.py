"""`CupyMemoryProfileHook`: profiles CuPy's memory pool, so it needs CUDA."""
from minichainer import function_hook


class CupyMemoryProfileHook(function_hook.FunctionHook):
    """Memory usage per function in CuPy's memory pool (CUDA only).

    minichainer has no GPU backend: constructing this hook raises `RuntimeError`
    naming CuPy/CUDA, as Chainer does on a machine without CUDA.
    """

    name = 'CupyMemoryProfileHook'
    _units = ['B', 'KB', 'MB', 'GB', 'TB', 'PB', 'EB', 'ZB']
    _table = {u: 1024.0 ** i for i, u in enumerate(_units)}

    def __init__(self):
        raise RuntimeError(
            'CupyMemoryProfileHook: requires CuPy and a CUDA environment, which are not '
            'available in minichainer (CPU only)')
