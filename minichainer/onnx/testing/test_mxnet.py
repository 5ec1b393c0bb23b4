"""onnx_chainer's MXNet checker (``--value-check-runtime=mxnet`` of its test suite).

Apache MXNet is retired (its last release predates NumPy 2) and is not supported:
`check_model_expect` raises ImportError pointing at the ONNX Runtime checker.
"""
MXNET_AVAILABLE = False


def check_model_expect(test_path, input_names=None, rtol=1e-5, atol=1e-5):
    """Raise ImportError: MXNet is not supported; use
    `minichainer.onnx.testing.test_onnxruntime.check_model_expect`."""
    raise ImportError(
        'onnx_chainer.testing.test_mxnet: MXNet (retired, no NumPy 2 support) is not '
        'supported by minichainer; check exported models with ONNX Runtime '
        '(onnx_chainer.testing.test_onnxruntime.check_model_expect)')
