"""Function hooks (`chainer.function_hooks`): TimerHook, PrintHook and the CUDA-only
CupyMemoryProfileHook / CUDAProfileHook (which raise: minichainer has no GPU backend)."""
from minichainer.function_hooks.cuda_profile import CUDAProfileHook  # noqa: F401
from minichainer.function_hooks.cupy_memory_profile import CupyMemoryProfileHook  # noqa: F401
from minichainer.function_hooks.debug_print import PrintHook  # noqa: F401
from minichainer.function_hooks.timer import TimerHook  # noqa: F401
