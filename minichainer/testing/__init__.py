"""Helpers for testing Chainer-style code (`chainer.testing`)."""
from minichainer.testing import attr  # noqa: F401
from minichainer.testing import condition  # noqa: F401
from minichainer.testing import matrix  # noqa: F401
from minichainer.testing.array import assert_allclose  # noqa: F401
from minichainer.testing.backend import BackendConfig  # noqa: F401
from minichainer.testing.backend import inject_backend_tests  # noqa: F401
from minichainer.testing.distribution_test import distribution_unittest  # noqa: F401
from minichainer.testing.function_link import FunctionTestCase  # noqa: F401
from minichainer.testing.function_link import FunctionTestError  # noqa: F401
from minichainer.testing.function_link import InitializerArgument  # noqa: F401
from minichainer.testing.function_link import LinkInitializersTestCase  # noqa: F401
from minichainer.testing.function_link import LinkTestCase  # noqa: F401
from minichainer.testing.function_link import LinkTestError  # noqa: F401
from minichainer.testing.helper import assert_warns  # noqa: F401
from minichainer.testing.helper import patch  # noqa: F401
from minichainer.testing.helper import with_requires  # noqa: F401
from minichainer.testing.helper import without_requires  # noqa: F401
from minichainer.testing.matrix import generate_matrix  # noqa: F401
from minichainer.testing.parameterized import from_pytest_parameterize  # noqa: F401
from minichainer.testing.parameterized import parameterize  # noqa: F401
from minichainer.testing.parameterized import parameterize_pytest  # noqa: F401
from minichainer.testing.parameterized import product  # noqa: F401
from minichainer.testing.parameterized import product_dict  # noqa: F401
from minichainer.testing.parameterized import pytest_to_chainer  # noqa: F401
from minichainer.testing.random import fix_random  # noqa: F401
from minichainer.testing.random import generate_seed  # noqa: F401
from minichainer.testing.serializer import save_and_load  # noqa: F401
from minichainer.testing.serializer import save_and_load_hdf5  # noqa: F401
from minichainer.testing.serializer import save_and_load_npz  # noqa: F401
from minichainer.testing.training import get_trainer_with_mock_updater  # noqa: F401
from minichainer.testing.unary_math_function_test import unary_math_function_unittest  # noqa: F401,E501


def run_module(name, file):
    """Run the tests of `file` with pytest when `name == '__main__'`.

    Usage at the bottom of a test module: `testing.run_module(__name__, __file__)`.
    """
    if name == '__main__':
        import pytest
        pytest.main([file, '-vvs', '-x', '--pdb'])
