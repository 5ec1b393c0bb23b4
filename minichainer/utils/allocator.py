"""glibc `malloc` settings for the CPU engine's large temporary arrays (Linux only).

A convnet training step allocates and frees tens of MiB of feature maps, patch matrices
and gradients. With glibc's default settings the heap's trim threshold follows its
dynamic mmap threshold (at most 64 MiB), so after each step the freed top of the heap is
handed back to the kernel, and the next step faults it back in page by page (NumPy asks
for transparent huge pages on large buffers, so a fault may zero 2 MiB): on the
benchmark convnet ~3,000-4,000 faults and 20-40 ms of system time per step, on the
ResNet stack ~7,000 (`benchmarks/README.md`, issue 13). Keeping those buffers in the
heap removes nearly all of them.

`tune_malloc()` sets two of glibc's `mallopt` parameters for the whole process:
`M_MMAP_THRESHOLD` to `MMAP_THRESHOLD` (32 MiB, the largest glibc accepts and the value its
dynamic threshold reaches by itself; larger blocks stay separate mappings) and
`M_TRIM_THRESHOLD` to `TRIM_THRESHOLD` (up to 256 MiB of free memory at the top of the
heap is kept instead of returned). Memory is not allocated by this; a process simply
keeps, up to that bound, what it has already used. It is a named step at import: the
convolution engine (`minichainer/functions/connection/convolution_engine.py`, loaded by
`import minichainer.functions`) calls it once when it is imported and keeps the result
as `convolution_engine.MALLOC_TUNED`; `import minichainer` alone does not. On the
benchmark convnet (see `docs/architecture.md`, process-wide state)
it removes ~4,000 page faults and ~13 ms of system time per step (the step takes about
0.8x the time).

It does nothing (and never raises) when:

* the environment variable `MINICHAINER_MALLOC_TUNING` is `0` (or `false`/`no`/`off`),
  the opt-out;
* the user chose glibc settings already (`MALLOC_TOP_PAD_`, `MALLOC_TRIM_THRESHOLD_`,
  `MALLOC_MMAP_THRESHOLD_`, `MALLOC_MMAP_MAX_` or `GLIBC_TUNABLES` in the environment);
* the C library is not glibc (macOS, Windows, musl) or `mallopt` cannot be called.
"""
import ctypes
import os
import threading

ENV_VAR = 'MINICHAINER_MALLOC_TUNING'
MMAP_THRESHOLD = 32 * 1024 * 1024
TRIM_THRESHOLD = 256 * 1024 * 1024

# glibc's <malloc.h> parameter numbers
_M_TRIM_THRESHOLD = -1
_M_MMAP_THRESHOLD = -3
_USER_SETTINGS = ('MALLOC_TOP_PAD_', 'MALLOC_TRIM_THRESHOLD_', 'MALLOC_MMAP_THRESHOLD_',
                  'MALLOC_MMAP_MAX_', 'GLIBC_TUNABLES')
_OFF = ('0', 'false', 'no', 'off')


class _State:
    """Whether an attempt is still to be made, and whether the settings are in effect."""
    pending = True
    applied = False
    lock = threading.Lock()


_state = _State()


def _glibc_mallopt():
    """glibc's `mallopt` as a ctypes function, or None when the C library is not glibc."""
    try:
        version = os.confstr('CS_GNU_LIBC_VERSION')
    except (AttributeError, ValueError, OSError):  # no confstr (Windows), unknown name
        return None
    if not version or not version.startswith('glibc'):
        return None
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return None
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    mallopt.restype = ctypes.c_int
    return mallopt


def _skip_reason():
    """Why the settings must not be applied, or None."""
    if os.environ.get(ENV_VAR, '').strip().lower() in _OFF:
        return ENV_VAR
    for name in _USER_SETTINGS:
        if name in os.environ:
            return name
    return None


def tune_malloc():
    """Apply the settings once for the process (later calls only report).

    Returns:
        bool: whether the settings are in effect.
    """
    with _state.lock:
        if _state.pending:
            _state.pending = False
            mallopt = None if _skip_reason() else _glibc_mallopt()
            # mallopt returns 1 on success; stop at the first refusal
            _state.applied = (mallopt is not None
                              and mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD) == 1
                              and mallopt(_M_TRIM_THRESHOLD, TRIM_THRESHOLD) == 1)
        return _state.applied
