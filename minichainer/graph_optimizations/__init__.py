"""Static-graph decorators (`chainer.graph_optimizations`), run define-by-run.

Chainer 7's `@static_graph` traces a chain's first call into a static schedule and
replays it afterwards; `@static_code` marks code that must run on every replay.
minichainer accepts both decorators with Chainer's arguments but always runs the
decorated code define-by-run, so results are identical to the undecorated model (Chainer
documents the same results; only its speed differs).  See docs/autodiff.md.
"""
from minichainer.graph_optimizations.static_graph_utilities import static_code  # noqa: F401
