import numpy
import pytest

from minichainer.utils import scatter


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
def test_add_rows_adds_in_order_as_a_loop(dtype, monkeypatch):
    rng = numpy.random.RandomState(0)
    ids = numpy.array([3, 1, 3, 3, 0, 1, 3], numpy.int32)
    rows = (rng.randn(7, 5) * 1000).astype(dtype)
    rows[2, ::2] = -0.0
    expect = rng.randn(4, 5).astype(dtype)
    target = expect.copy()
    for i, r in zip(ids, rows):
        expect[i] += r
    for chunk in (scatter.SCATTER_ELEMENTS, 6):        # whole, and two rows a call
        monkeypatch.setattr(scatter, 'SCATTER_ELEMENTS', chunk)
        got = target.copy()
        scatter.add_rows(got, ids, rows)
        numpy.testing.assert_array_equal(got, expect)
        assert (numpy.signbit(got) == numpy.signbit(expect)).all()


def test_segment_sums_add_each_run_front_to_back():
    rng = numpy.random.RandomState(1)
    counts = numpy.array([3, 0, 1, 5, 2])
    values = (rng.randn(counts.sum(), 4) * 1000).astype(numpy.float32)
    expect = numpy.zeros((5, 4), numpy.float32)
    pos = 0
    for i, c in enumerate(counts):
        if c:
            acc = values[pos].copy()
            for j in range(1, c):
                acc += values[pos + j]
            expect[i] = acc
        pos += c
    got = scatter.segment_sums(values, counts)
    numpy.testing.assert_array_equal(got, expect)
    assert got.dtype == numpy.float32
    assert not scatter.segment_sums(values[:0], numpy.zeros(3, int)).any()
    assert scatter.segment_sums(values[:0], numpy.zeros(0, int)).shape == (0, 4)
