"""TensorBoardReport and the notebook displays import their packages only when used."""
import os
import subprocess
import sys

import pytest

from minichainer.training import extensions


def test_tensorboard_report_without_tensorboardx_names_the_package(monkeypatch):
    monkeypatch.setitem(sys.modules, 'tensorboardX', None)
    with pytest.raises(ImportError, match=r'tensorboardX.*minichainer\[tensorboard\]'):
        extensions.TensorBoardReport()


def test_importing_extensions_imports_no_optional_package():
    code = ('import sys, minichainer, minichainer.training.extensions; '
            'print(sorted(m for m in ("tensorboardX", "tensorboard", "IPython", '
            '"ipykernel", "ipywidgets", "tqdm.notebook") if m in sys.modules))')
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__)))))
    env = dict(os.environ, PYTHONPATH=root + os.pathsep + os.environ.get('PYTHONPATH', ''))
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True,
                         check=True, env=env).stdout
    assert out.strip() == '[]'
