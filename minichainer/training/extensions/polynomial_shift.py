"""PolynomialShift: decay an optimizer attribute polynomially."""
from minichainer.training.extensions import _shift_base


class PolynomialShift(_shift_base.ShiftFromInitBase):
    """Sets `optimizer.<attr> = init * max(1 - t / max_count, 0) ** rate` at the
    `t`-th call.

    Args:
        attr (str): Attribute to shift.
        rate (float): Exponent of the polynomial.
        max_count (int): Number of calls until the value reaches zero.
        init (float): Initial value; the attribute's value at start if None.
        target (float): Value where the shift stops (a floor for `rate > 0`).
        optimizer: Optimizer to change; the `'main'` one by default.
    """

    invoke_before_training = True  # a class attribute Chainer 7 still has (unused)

    def __init__(self, attr, rate, max_count, init=None, target=None, optimizer=None):
        super().__init__(attr, init, target, optimizer)
        self._rate = rate
        self._max_count = max_count

    def __call__(self, trainer):
        self._t += 1
        decay = max(1 - self._t / self._max_count, 0)
        value = self._init * decay ** self._rate
        target = self._target
        if target is not None:
            # Written as ratios so that negative values work, as in Chainer; a value
            # of zero counts as past the target.
            if value == 0:
                value = target
            elif self._rate > 0:
                if target / value > 1:
                    value = target
            elif target / value < 1:
                value = target
        self._update_value(self._get_optimizer(trainer), value)
