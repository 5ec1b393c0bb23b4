import numpy
import pytest

import minichainer.functions as F
from minichainer.utils import type_check


def _reference(y, t, label_num, beta, ignore_label):
    pred = y.argmax(axis=1).ravel()
    t = t.ravel()
    keep = t != ignore_label
    pred, t = pred[keep], t[keep]
    prec, rec, fb, sup = [], [], [], []
    for c in range(label_num):
        tp = numpy.sum((pred == c) & (t == c))
        p = tp / numpy.sum(pred == c) if numpy.sum(pred == c) else numpy.nan
        r = tp / numpy.sum(t == c) if numpy.sum(t == c) else numpy.nan
        prec.append(p)
        rec.append(r)
        with numpy.errstate(invalid='ignore'):
            fb.append((1 + beta ** 2) * p * r / (beta ** 2 * p + r))
        sup.append(numpy.sum(t == c))
    return [numpy.array(a) for a in (prec, rec, fb, sup)]


@pytest.mark.parametrize('beta', [1.0, 2.0])
@pytest.mark.parametrize('label_num', [None, 4])
def test_classification_summary(beta, label_num):
    rng = numpy.random.RandomState(0)
    y = rng.uniform(-1, 1, (30, 3)).astype(numpy.float32)
    t = rng.randint(-1, 3, 30).astype(numpy.int32)
    n = 3 if label_num is None else label_num
    out = F.classification_summary(y, t, label_num=label_num, beta=beta)
    ref = _reference(y, t, n, beta, -1)
    assert len(out) == 4
    for got, exp in zip(out, ref):
        assert got.shape == (n,)
        numpy.testing.assert_allclose(got.array, exp, rtol=1e-7)


def test_precision_recall_f1():
    rng = numpy.random.RandomState(1)
    y = rng.uniform(-1, 1, (20, 3, 2)).astype(numpy.float32)
    t = rng.randint(0, 3, (20, 2)).astype(numpy.int32)
    prec, rec, f1, sup = _reference(y, t, 3, 1.0, -1)
    for fn, exp in ((F.precision, prec), (F.recall, rec), (F.f1_score, f1)):
        value, support = fn(y, t)
        numpy.testing.assert_allclose(value.array, exp, rtol=1e-7)
        numpy.testing.assert_array_equal(support.array, sup)


def test_classification_summary_type_error():
    with pytest.raises(type_check.InvalidType):
        F.classification_summary(numpy.zeros((2, 3), 'f'), numpy.zeros(2, 'f'))
