"""The API reference pages' generator (docs/api/_generate.py), loaded for the docs tests."""
import importlib.util
import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def load_generator():
    """Import docs/api/_generate.py (not a package module) and return it."""
    path = os.path.join(ROOT, 'docs', 'api', '_generate.py')
    spec = importlib.util.spec_from_file_location('_docs_api_generate', path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
