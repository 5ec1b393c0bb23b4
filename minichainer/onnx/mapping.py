"""onnx_chainer's `mapping` module: `converters`, the table of built-in converters."""
from minichainer.onnx.functions import converters  # noqa: F401
