"""utils.final / utils.enable_final."""
import warnings

import pytest

from minichainer import utils


class _Base(utils.enable_final()):
    @utils.final
    def fixed(self):
        return 1

    @utils.final(action=DeprecationWarning)
    def soft(self):
        return 2

    def free(self):
        return 3


def test_overriding_final_raises_type_error():
    with pytest.raises(TypeError, match="method 'fixed' is final"):
        class Sub(_Base):
            def fixed(self):
                return 0


def test_overriding_warn_final_warns_and_defines_class():
    with pytest.warns(DeprecationWarning, match="Overriding method 'soft'"):
        class Sub(_Base):
            def soft(self):
                return 0
    assert Sub().soft() == 0 and Sub().fixed() == 1


def test_plain_overrides_and_custom_exception():
    with warnings.catch_warnings():
        warnings.simplefilter('error')

        class Sub(_Base):
            def free(self):
                return 4
    assert Sub().free() == 4

    class Base2(utils.enable_final()):
        @utils.final(action=ValueError)
        def f(self):
            pass

    with pytest.raises(ValueError):
        class Sub2(Base2):
            f = None


def test_enable_final_with_bases_and_metaclass():
    class Meta(type):
        pass

    class Root(metaclass=Meta):
        def hello(self):
            return 'hi'

    class Base(utils.enable_final(base=Root, meta_base=Meta)):
        @utils.final
        def g(self):
            pass

    assert isinstance(Base, Meta) and issubclass(Base, Root)
    assert Base().hello() == 'hi'
    with pytest.raises(TypeError):
        class Sub(Base):
            def g(self):
                pass


def test_final_rejects_bad_use():
    with pytest.raises(TypeError, match='action must be'):
        utils.final(action=int)(lambda self: None)
    with pytest.raises(TypeError, match='expected a method'):
        utils.final(3)
