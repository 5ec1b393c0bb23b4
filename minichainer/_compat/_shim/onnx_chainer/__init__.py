# Import shim: see ../chainer/__init__.py. Replaced by minichainer.onnx.
import sys

import minichainer.compat

minichainer.compat.install()
import minichainer.onnx  # noqa: E402

sys.modules['onnx_chainer'] = minichainer.onnx
