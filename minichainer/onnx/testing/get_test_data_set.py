"""`gen_test_data_set`: export a test case under ``out/opset<N>/<name>``."""
import os

from minichainer.onnx.export_testcase import export_testcase

TEST_OUT_DIR = 'out'


def gen_test_data_set(model, args, name, opset_version, **kwargs):
    """Seed the model's RNG with 42, export a test case of `model` on `args` to
    ``TEST_OUT_DIR/opset<opset_version>/<name>`` and return that path."""
    model.xp.random.seed(42)
    test_path = os.path.join(TEST_OUT_DIR, 'opset{}'.format(opset_version), name)
    export_testcase(model, args, test_path, opset_version=opset_version, **kwargs)
    return test_path
