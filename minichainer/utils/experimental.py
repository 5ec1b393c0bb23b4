"""`chainer.utils.experimental`: mark an API as experimental."""
import warnings

import minichainer


def experimental(api_name):
    """Issue a `FutureWarning` saying that `api_name` is experimental.

    Call it at the start of an experimental function (or of `__init__` for a
    class). Setting `chainer.disable_experimental_feature_warning = True`
    silences it.

    Args:
        api_name (str): Name of the experimental API, used in the message.
    """
    if getattr(minichainer, 'disable_experimental_feature_warning', False):
        return
    warnings.warn('{} is experimental. The interface can change in the future.'.format(
        api_name), FutureWarning)
