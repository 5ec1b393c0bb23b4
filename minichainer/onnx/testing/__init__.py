"""Test helpers of onnx_chainer: `input_generator`, `get_test_data_set`,
`test_onnxruntime`."""
