"""`examples/demo.py --onnx` writes result/model.onnx and prints both accuracies."""
import importlib.util
import os
import re

import pytest

# PrintReport's default stream is the sys.stdout of the time its module is imported:
# import it here, not under this test's capsys (whose stream is closed afterwards)
import minichainer.training.extensions  # noqa: F401

pytest.importorskip('onnx')
pytest.importorskip('onnxruntime')
pytest.importorskip('sklearn')

EXAMPLES = os.path.join(os.path.dirname(__file__), '..', '..', 'examples')


def test_demo_onnx_flag(tmp_path, capsys):
    spec = importlib.util.spec_from_file_location('_demo_onnx',
                                                  os.path.join(EXAMPLES, 'demo.py'))
    demo = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(demo)
    out = tmp_path / 'result'
    demo.main(['--epoch', '1', '--unit', '16', '--out', str(out), '--no-progress',
               '--onnx'])
    assert (out / 'model.onnx').is_file()
    printed = capsys.readouterr().out
    found = re.search(r'validation accuracy: minichainer ([0-9.]+), ONNX Runtime ([0-9.]+)',
                      printed)
    assert found, printed
    assert found.group(1) == found.group(2)
    assert float(found.group(1)) > 0.15   # above chance (0.1) after one short epoch
