"""Warning categories (`chainer.warnings`)."""


class PerformanceWarning(RuntimeWarning):
    """A slower implementation is used (for example a fallback without SciPy)."""
