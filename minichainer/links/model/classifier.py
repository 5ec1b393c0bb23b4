"""The `Classifier` wrapper: a predictor plus a loss and an accuracy."""
from minichainer import link
from minichainer import reporter
from minichainer.functions.evaluation.accuracy import accuracy
from minichainer.functions.loss.softmax_cross_entropy import softmax_cross_entropy


class Classifier(link.Chain):
    """Wrap a predictor: `model(*args, t)` returns `lossfun(predictor(*args), t)`.

    The loss (and the accuracy, when `compute_accuracy` is True) are reported to the
    current reporter as `loss`/`accuracy` of this link (e.g. `main/loss`), and kept
    in the attributes `y`, `loss` and `accuracy`.

    Args:
        predictor (Link): The predictor (registered as child `predictor`).
        lossfun: Loss function (default `softmax_cross_entropy`).
        accfun: Accuracy function (default `accuracy`).
        label_key (int or str): Position (int) or keyword (str) of the label argument.

    Raises:
        TypeError: `label_key` is neither int nor str.
    """

    compute_accuracy = True

    def __init__(self, predictor, lossfun=softmax_cross_entropy, accfun=accuracy,
                 label_key=-1):
        if not isinstance(label_key, (int, str)):
            raise TypeError('Classifier: label_key must be int or str, but is {}'.format(
                type(label_key).__name__))
        super().__init__()
        self.lossfun = lossfun
        self.accfun = accfun
        self.y = None
        self.loss = None
        self.accuracy = None
        self.label_key = label_key
        with self.init_scope():
            self.predictor = predictor

    def _call_predictor_without_inputs(self, label_key):
        # Every argument was taken as the label: ``model(x)`` instead of ``model(x, t)``
        # is the usual cause; a predictor taking no input is legal (Chainer's tests).
        try:
            return self.predictor()
        except TypeError as e:
            raise TypeError(
                'Classifier: the predictor was called without inputs because the only '
                'argument was taken as the label (label_key={!r}); call the classifier '
                'with the input(s) followed by the label, e.g. model(x, t) ({}: {})'
                .format(label_key, type(e).__name__, e)) from e

    def forward(self, *args, **kwargs):
        """Compute and report the loss (and accuracy); return the loss.

        Raises:
            ValueError: the label argument is missing.
            TypeError: called with the label only (e.g. `model(x)`: `x` is taken
                as the label) and the predictor needs an input.
        """
        label_key = self.label_key
        if isinstance(label_key, int):
            if not -len(args) <= label_key < len(args):
                raise ValueError('Classifier: Label key {} is out of bounds for {} '
                                 'positional arguments'.format(label_key, len(args)))
            t = args[label_key]
            if label_key == -1:
                args = args[:-1]
            else:
                args = args[:label_key] + args[label_key + 1:]
        else:
            if label_key not in kwargs:
                raise ValueError('Classifier: Label key "{}" is not found in the keyword '
                                 'arguments'.format(label_key))
            t = kwargs.pop(label_key)

        self.y = None
        self.loss = None
        self.accuracy = None
        if args or kwargs:
            self.y = self.predictor(*args, **kwargs)
        else:
            self.y = self._call_predictor_without_inputs(label_key)
        self.loss = self.lossfun(self.y, t)
        reporter.report({'loss': self.loss}, self)
        if self.compute_accuracy:
            self.accuracy = self.accfun(self.y, t)
            reporter.report({'accuracy': self.accuracy}, self)
        return self.loss
