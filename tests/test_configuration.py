import io
import threading

import numpy
import pytest

import minichainer
from minichainer import configuration


def test_defaults():
    c = minichainer.config
    assert c.train is True
    assert c.enable_backprop is True
    assert c.type_check is True
    assert c.debug is False
    assert c.keep_graph_on_report is False
    assert c.lazy_grad_sum is False
    assert c.use_cudnn == 'auto'
    assert c.use_ideep == 'never'
    assert c.dtype == numpy.float32
    assert minichainer.get_dtype() == numpy.float32


def test_using_config_sets_and_restores():
    c = minichainer.config
    with minichainer.using_config('train', False):
        assert c.train is False
        with minichainer.using_config('train', True):
            assert c.train is True
        assert c.train is False
    assert c.train is True
    assert 'train' not in c._local.__dict__


def test_using_config_restores_on_exception():
    with pytest.raises(RuntimeError):
        with minichainer.using_config('train', False):
            raise RuntimeError('boom')
    assert minichainer.config.train is True


def test_local_falls_back_to_global():
    minichainer.global_config.my_key = 3
    assert minichainer.config.my_key == 3
    minichainer.config.my_key = 4
    assert minichainer.config.my_key == 4
    assert minichainer.global_config.my_key == 3
    del minichainer.config.my_key
    assert minichainer.config.my_key == 3


def test_unknown_key_raises_attribute_error():
    with pytest.raises(AttributeError):
        minichainer.config.no_such_key


def test_thread_local():
    seen = {}

    def worker():
        seen['train'] = minichainer.config.train
        minichainer.config.train = 'thread'
        seen['after'] = minichainer.config.train

    with minichainer.using_config('train', False):
        thread = threading.Thread(target=worker)
        thread.start()
        thread.join()
        assert minichainer.config.train is False
    assert seen == {'train': True, 'after': 'thread'}
    assert minichainer.config.train is True


def test_backprop_modes():
    assert minichainer.config.enable_backprop
    with minichainer.no_backprop_mode():
        assert not minichainer.config.enable_backprop
        with minichainer.force_backprop_mode():
            assert minichainer.config.enable_backprop
        assert not minichainer.config.enable_backprop
    assert minichainer.config.enable_backprop


def test_get_dtype_and_mixed16():
    assert minichainer.get_dtype(numpy.float64) == numpy.float64
    with minichainer.using_config('dtype', minichainer.mixed16):
        assert minichainer.get_dtype() == numpy.float16
        assert minichainer.get_dtype(map_mixed16=numpy.float32) == numpy.float32
    with minichainer.using_config('dtype', numpy.dtype(numpy.float16)):
        assert minichainer.get_dtype() == numpy.float16


def test_debug_mode():
    assert not minichainer.is_debug()
    with minichainer.DebugMode(True):
        assert minichainer.is_debug()
    assert not minichainer.is_debug()


def test_show_lists_keys():
    out = io.StringIO()
    with minichainer.using_config('train', False):
        minichainer.config.show(out)
    text = out.getvalue()
    assert 'train' in text and 'False' in text
    assert 'enable_backprop' in text


def test_gpu_only_keys_are_accepted():
    with minichainer.using_config('use_cudnn', 'never'):
        assert minichainer.config.use_cudnn == 'never'
    with minichainer.using_config('autotune', True):
        assert minichainer.config.autotune is True


def test_print_runtime_info(no_cupy):
    out = io.StringIO()
    minichainer.print_runtime_info(out)
    text = out.getvalue()
    assert 'NumPy: ' + numpy.__version__ in text
    assert 'CuPy: Not Available' in text


def test_lazy_submodules():
    assert minichainer.functions.relu is not None
    assert minichainer.Variable is minichainer.variable.Variable
    with pytest.raises(AttributeError):
        minichainer.no_such_thing


def test_get_value_and_thread_settings_follow_the_thread():
    assert configuration.get_value('train') is True
    assert 'train' not in configuration.thread_settings()
    seen = {}

    def other_thread():
        seen['value'] = configuration.get_value('train')
        seen['settings'] = dict(configuration.thread_settings())

    with minichainer.using_config('train', False):
        assert configuration.get_value('train') is False
        assert configuration.thread_settings()['train'] is False
        t = threading.Thread(target=other_thread)
        t.start()
        t.join()
    assert seen == {'value': True, 'settings': {}}
    assert configuration.get_value('train') is True
    with pytest.raises(AttributeError):
        configuration.get_value('no_such_key')
