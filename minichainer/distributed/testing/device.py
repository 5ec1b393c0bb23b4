"""`chainermn.testing.get_device`."""
from minichainer import backend


def get_device(device_id=None, use_chainerx=False):
    """The device a ChainerMN test runs on: `@numpy`, or `@cupy:<device_id>` for a GPU
    id (an error saying why where CuPy or that GPU is not there; ChainerX is not
    supported)."""
    if device_id is not None:
        spec = 'cuda:{}'.format(device_id) if use_chainerx else '@cupy:{}'.format(
            device_id)
    else:
        spec = 'native:0' if use_chainerx else '@numpy'
    return backend.get_device(spec)
