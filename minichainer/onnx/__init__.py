"""Export minichainer models to ONNX: Chainer's `onnx_chainer` on today's onnx.

Served as `onnx_chainer` by `python -m minichainer.compat` and
`minichainer.compat.install()`.  Needs the optional packages `onnx` (and
`onnxruntime` to run the models): `pip install 'minichainer[onnx]'`.  See docs/onnx.md.
"""
from minichainer.onnx._deps import require_onnx as _require_onnx

_require_onnx()

from minichainer.onnx.export import convert_parameter  # noqa: E402,F401
from minichainer.onnx.export import export  # noqa: E402,F401
from minichainer.onnx.export import MAXIMUM_OPSET_VERSION  # noqa: E402,F401
from minichainer.onnx.export import MINIMUM_OPSET_VERSION  # noqa: E402,F401
from minichainer.onnx.export import UnsupportedFunctionError  # noqa: E402,F401
from minichainer.onnx.export_testcase import export_testcase  # noqa: E402,F401
from minichainer.onnx import replace_func  # noqa: E402,F401
from minichainer.onnx import onnx_helper  # noqa: E402,F401
