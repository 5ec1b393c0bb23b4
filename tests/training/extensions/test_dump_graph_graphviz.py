"""DumpGraph's Graphviz helpers (is_graphviz_available) and PNG rendering."""
import os
import stat
import sys

from minichainer.training.extensions import computational_graph as cg_ext

from .. import _models


def test_is_return_code_zero():
    assert cg_ext.is_return_code_zero([sys.executable, '-c', 'pass']) is True
    assert cg_ext.is_return_code_zero(
        [sys.executable, '-c', 'raise SystemExit(3)']) is False
    assert cg_ext.is_return_code_zero(['/nonexistent/command-xyz']) is False


def test_is_graphviz_available_is_bool():
    assert isinstance(cg_ext.is_graphviz_available(), bool)


def test_png_rendered_when_dot_is_available(tmp_path, monkeypatch):
    # A fake ``dot`` on PATH: answers -V and "renders" by copying the input file.
    bindir = tmp_path / 'bin'
    bindir.mkdir()
    fake = bindir / 'dot'
    fake.write_text(
        '#!{}\nimport shutil, sys\nargs = sys.argv[1:]\n'
        'if args != ["-V"]:\n    shutil.copy(args[1], args[3])\n'.format(sys.executable))
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv('PATH', str(bindir) + os.pathsep + os.environ.get('PATH', ''))
    out = tmp_path / 'out'
    trainer, _ = _models.make_trainer(str(out), stop=(1, 'iteration'))
    trainer.extend(cg_ext.DumpGraph('main/loss', filename='g.dot'))
    trainer.run()
    assert (out / 'g.dot').exists()
    assert (out / 'g.png').read_text() == (out / 'g.dot').read_text()


def test_hook_parameter_names_match_chainer():
    import inspect
    from minichainer.training.extensions import variable_unchain
    assert list(inspect.signature(cg_ext.DumpGraph.initialize).parameters) == [
        'self', 'trainer']
    assert list(inspect.signature(cg_ext.DumpGraph.trigger).parameters) == [
        'self', 'trainer']
    cls = variable_unchain.unchain_variables
    assert list(inspect.signature(cls.trigger).parameters) == ['self', '_']
