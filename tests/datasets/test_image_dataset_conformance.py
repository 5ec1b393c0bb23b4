"""image_dataset module attributes that Chainer's own tests rely on."""
import importlib.util

from minichainer.datasets import image_dataset


def test_available_flag_reports_pillow():
    # Chainer's tests skip on ``image_dataset.available``
    assert image_dataset.available is (importlib.util.find_spec('PIL') is not None)
    assert callable(image_dataset._check_pillow_availability)
