"""FailOnNonNumber: stop training when a parameter (or gradient) is NaN or infinite."""
import numpy

from minichainer import backend
from minichainer.training import extension


class FailOnNonNumber(extension.Extension):
    """Raise `RuntimeError` naming the optimizer and parameter when a parameter
    holds NaN or infinity.

    Args:
        check_grad (bool): Check gradients too (default False, as Chainer 7.8.1, which
            checks parameters only).  Gradients are NaN-filled before the first
            backward, and dynamic loss scaling makes them infinite on purpose, so
            this is off unless asked for.  A minichainer addition.
    """

    def __init__(self, check_grad=False):
        self._check_grad = check_grad

    def __call__(self, trainer):
        for name, optimizer in trainer.updater.get_all_optimizers().items():
            target = optimizer.target
            xp = target.xp
            checks = []  # (path, is_grad, flag)
            for path, param in target.namedparams():
                array = param.array
                if array is not None:
                    checks.append((path, False, xp.isfinite(array).all()))
                if self._check_grad:
                    grad = param.grad
                    if grad is not None:
                        checks.append((path, True, xp.isfinite(grad).all()))
            if not checks:
                continue
            if xp is numpy:
                finite = [bool(flag) for _, _, flag in checks]
            else:  # a model on a GPU: every flag to the host in one copy
                finite = backend.CpuDevice().send(xp.stack([f for _, _, f in checks]))
            for (path, is_grad, _), ok in zip(checks, finite):
                if ok:
                    continue
                if is_grad:
                    raise RuntimeError(
                        "Kill the process since the gradient of parameter '{}' in "
                        "optimizer '{}' holds NaN or infinity. R.I.P.".format(path, name))
                raise RuntimeError(
                    "Kill the process since parameters in optimizer '{}' diverge: "
                    "parameter '{}' holds NaN or infinity. R.I.P.".format(name, path))
