import numpy

import minichainer.functions as F


def test_family_function_doubles_as_module():
    from minichainer.functions.activation import lstm, softplus
    from minichainer.functions.noise import dropout
    from minichainer.functions.evaluation import accuracy
    from minichainer.functions.util import forget
    assert lstm is F.lstm and callable(lstm)
    assert lstm.lstm is F.lstm
    assert lstm.LSTM.__name__ == 'LSTM'
    assert dropout.Dropout.__name__ == 'Dropout'
    assert accuracy.Accuracy.__name__ == 'Accuracy'
    assert forget.Forget.__name__ == 'Forget'

    class MySoftplus(softplus.Softplus):  # user code subclasses via the module path
        pass
    y, = MySoftplus(beta=2.0).apply((numpy.zeros(2, numpy.float32),))
    numpy.testing.assert_allclose(y.array, numpy.log(2.) / 2, rtol=1e-6)
