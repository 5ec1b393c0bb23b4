"""Memory behaviour of the graph (DeZero steps 17-18): flat over repetitions, small peaks."""
import tracemalloc

import numpy

import minichainer
import minichainer.functions as F

MIB = 1024 * 1024


def _square_chain_peaks(no_backprop, repetitions=10):
    x = minichainer.Variable(numpy.random.rand(100, 100, 100))  # 7.6 MiB of float64
    tracemalloc.start()
    try:
        baseline = tracemalloc.get_traced_memory()[0]
        peaks, currents = [], []
        for _ in range(repetitions):
            tracemalloc.reset_peak()
            if no_backprop:
                with minichainer.no_backprop_mode():
                    y = F.square(F.square(F.square(x)))
            else:
                y = F.square(F.square(F.square(x)))
                y.grad = numpy.ones_like(y.array)
                y.backward()
            del y
            x.cleargrad()
            current, peak = tracemalloc.get_traced_memory()
            peaks.append((peak - baseline) / MIB)
            currents.append((current - baseline) / MIB)
    finally:
        tracemalloc.stop()
    return peaks, currents


def test_backward_memory_is_flat_and_bounded():
    peaks, currents = _square_chain_peaks(no_backprop=False)
    # x, three outputs (two retained by the next square), y.grad and two temporaries of
    # the backward: at most 7 arrays of 7.6 MiB live at once.
    assert max(peaks) <= 7 * 7.63 + 1
    assert max(peaks) - min(peaks) < 0.5           # flat across repetitions
    assert max(currents) < 0.5                      # nothing left behind


def test_no_backprop_forward_holds_only_live_arrays():
    peaks, currents = _square_chain_peaks(no_backprop=True)
    # x is outside the baseline; only an input and an output of one square are alive
    assert max(peaks) <= 2 * 7.63 + 1
    assert max(currents) < 0.5
