import itertools

import numpy
import pytest

import minichainer.functions as F
from minichainer import gradient_check


def _collapse(path, blank):
    out = []
    prev = None
    for p in path:
        if p != prev and p != blank:
            out.append(p)
        prev = p
    return tuple(out)


def _brute(x, labels, blank):
    """-log p(labels | x) by enumerating all alignments; x is (T, V)."""
    y = numpy.exp(x - x.max(1, keepdims=True))
    y /= y.sum(1, keepdims=True)
    T, V = x.shape
    p = 0.0
    for path in itertools.product(range(V), repeat=T):
        if _collapse(path, blank) == tuple(labels):
            p += numpy.prod([y[t, k] for t, k in enumerate(path)])
    return -numpy.log(p)


@pytest.mark.parametrize('reduce', ['mean', 'no'])
def test_ctc(reduce):
    rng = numpy.random.RandomState(0)
    T, B, V = 4, 3, 3
    blank = 0
    xs = [rng.randn(B, V) for _ in range(T)]
    t = numpy.array([[1, 2], [1, 1], [2, 0]], numpy.int32)
    input_length = numpy.array([4, 4, 3], numpy.int32)
    label_length = numpy.array([2, 2, 1], numpy.int32)
    loss = F.connectionist_temporal_classification(xs, t, blank, input_length, label_length,
                                                   reduce=reduce)
    x = numpy.stack(xs)
    ref = numpy.array([_brute(x[:input_length[b], b], t[b, :label_length[b]], blank)
                       for b in range(B)])
    numpy.testing.assert_allclose(loss.array, ref.mean() if reduce == 'mean' else ref,
                                  rtol=1e-8)

    def f(*xs_):
        return F.connectionist_temporal_classification(
            list(xs_), t, blank, input_length, label_length, reduce=reduce)

    gy = None if reduce == 'mean' else rng.randn(B)
    gradient_check.check_backward(f, xs, gy, atol=1e-6, rtol=1e-5)


def test_ctc_float32_defaults_and_errors():
    rng = numpy.random.RandomState(1)
    xs = [rng.randn(2, 4).astype('f') for _ in range(5)]
    t = numpy.array([[1, 3], [2, 2]], numpy.int32)
    loss = F.connectionist_temporal_classification(xs, t, 0)
    assert loss.dtype == numpy.float32 and loss.shape == ()
    x = numpy.stack(xs).astype('d')
    ref = numpy.mean([_brute(x[:, b], t[b], 0) for b in range(2)])
    numpy.testing.assert_allclose(loss.array, ref, rtol=1e-5)
    with pytest.raises(TypeError):
        F.connectionist_temporal_classification(xs[0], t, 0)
    with pytest.raises(ValueError):
        F.connectionist_temporal_classification(xs, t, 4)
    with pytest.raises(ValueError):
        F.connectionist_temporal_classification(xs, numpy.array([[1, 5], [1, 1]], 'i'), 0)


def test_ctc_batch_equals_each_sequence_alone():
    # sequences of different input and label lengths (an empty label sequence, repeated
    # labels) computed together give, bit for bit, what each gives alone
    import minichainer
    rng = numpy.random.RandomState(5)
    T, B, V, blank = 9, 5, 4, 0
    xs = [rng.randn(B, V).astype(numpy.float32) for _ in range(T)]
    t = numpy.array([[1, 2, 2, 3], [3, 3, 3, 3], [2, 1, 0, 0], [1, 0, 0, 0], [2, 3, 1, 2]],
                    numpy.int32)
    label_length = numpy.array([4, 2, 2, 0, 3], numpy.int32)
    input_length = numpy.array([9, 5, 9, 3, 7], numpy.int32)
    xv = [minichainer.Variable(x) for x in xs]
    loss = F.connectionist_temporal_classification(
        xv, t, blank, input_length=input_length, label_length=label_length, reduce='no')
    F.sum(loss).backward()
    for b in range(B):
        Tb = int(input_length[b])
        xb = [minichainer.Variable(x[b:b + 1].copy()) for x in xs[:Tb]]
        lb = F.connectionist_temporal_classification(
            xb, t[b:b + 1], blank, input_length=input_length[b:b + 1],
            label_length=label_length[b:b + 1], reduce='no')
        F.sum(lb).backward()
        assert lb.array[0] == loss.array[b]
        for step in range(T):
            expect = xb[step].grad[0] if step < Tb else numpy.zeros(V, numpy.float32)
            numpy.testing.assert_array_equal(xv[step].grad[b], expect)
