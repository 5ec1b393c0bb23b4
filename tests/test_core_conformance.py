"""Conformance checks against Chainer 7.8.1 behaviour for the autodiff core."""
import io

from minichainer import configuration


def test_config_show_pads_key_with_single_space():
    g = configuration.GlobalConfig()
    local = configuration.LocalConfig(g)
    g.x = 'gx'
    local.abc = 1
    out = io.StringIO()
    local.show(out)
    assert out.getvalue() == 'abc 1\nx   gx\n'
    out = io.StringIO()
    g.show(out)
    assert out.getvalue() == 'x gx\n'
