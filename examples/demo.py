"""The `make demo` program.

Trains a multi-layer perceptron on the 8x8 handwritten digits bundled with scikit-learn,
with the standard trainer extensions, and writes its results to ``result/``.  Until the
training loop is complete it falls back to a short autodiff demonstration.
"""
import numpy

import minichainer
import minichainer.functions as F


def autodiff_demo():
    x = minichainer.Variable(numpy.array(2.0, numpy.float32), name='x')
    a = F.square(x)
    y = F.square(a) + F.square(a)
    y.backward()
    print('y = 2 * (x ** 2) ** 2 at x = 2: y = {}, dy/dx = {}'.format(y.array, x.grad))
    y = x ** 3
    y.backward(enable_double_backprop=True)
    gx = x.grad_var
    x.cleargrad()
    gx.backward()
    print('d2/dx2 of x ** 3 at x = 2: {}'.format(x.grad))


if __name__ == '__main__':
    autodiff_demo()
