"""Make ``_math_helpers`` importable by the tests of this directory.

The suite runs with ``--import-mode=importlib`` (test directories are not put on
sys.path) and this directory cannot be a package: a package named ``math``
would shadow the standard library module.  So the helper module is loaded from
its file and registered under its own unique name.
"""
import importlib.util
import pathlib
import sys

if '_math_helpers' not in sys.modules:
    _spec = importlib.util.spec_from_file_location(
        '_math_helpers', pathlib.Path(__file__).with_name('_math_helpers.py'))
    _module = importlib.util.module_from_spec(_spec)
    sys.modules['_math_helpers'] = _module
    _spec.loader.exec_module(_module)
