"""Shape rules of the code that issue 34 set (checked on the source, not by running it)."""
import ast
import os

import minichainer

PACKAGE = os.path.dirname(os.path.abspath(minichainer.__file__))


def _functions(relative):
    with open(os.path.join(PACKAGE, relative), encoding='utf-8') as f:
        tree = ast.parse(f.read())
    return [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]


def test_backward_engine_functions_fit_on_a_screen():
    lengths = {f.name: f.end_lineno - f.lineno + 1 for f in _functions('_backprop.py')}
    assert max(lengths.values()) <= 60, sorted(lengths.items(), key=lambda kv: -kv[1])[:3]
