"""threads= on run and sweep: the policies and grid points go to that many threads, without the GIL, with the
same rows on any count. A Python thread watches the call: the process's threads (/proc/self/task) and
whether it gets to run at all while the call is in C++."""
import os
import threading
import time

import pytest

import floatscope
from test_run import comparable


def watched(call):
    """call()'s result, the most threads the process had during it beyond those before it, and how many
    times a Python thread ran in the middle of it (none if the call held the GIL throughout)."""
    stop = threading.Event()
    samples = []

    def sample():
        while not stop.is_set():
            samples.append((time.perf_counter(), len(os.listdir("/proc/self/task"))))
            time.sleep(0.002)

    watcher = threading.Thread(target=sample, daemon=True)
    watcher.start()
    try:
        time.sleep(0.05)
        start = time.perf_counter()
        result = call()
        end = time.perf_counter()
    finally:
        stop.set()
        watcher.join()
    before = max(n for s, n in samples if s < start)
    during = [n for s, n in samples if start < s < end]
    assert end - start > 0.3, f"the call took {end - start:.3f} s: too short to watch; make it longer"
    middle = [s for s, _ in samples if start + 0.1 < s < end - 0.1]
    return result, max(during, default=before) - before, len(middle)


# About a quarter of a second per policy on one core: long enough to watch.
SUM = dict(series="normal", method="kahan", n=2_000_000, formats=["fp16", "bf16", "fp32"], as_frame=False)


@pytest.mark.parametrize("threads", [1, 3])
def test_run_threads_and_gil(threads):
    rows, extra_threads, python_ran = watched(lambda: floatscope.run("sum", threads=threads, **SUM))
    # The engine's pool: the calling thread and threads - 1 more (a truth's exact GEMMs could add some; sum has none).
    assert extra_threads == threads - 1
    assert python_ran > 5                      # the GIL was released while the runs ran
    assert len({r["policy"] for r in rows}) == 4


def test_sweep_threads_and_gil():
    call = lambda: floatscope.sweep("sum", {"seed": [1, 2]}, threads=3, **SUM)  # noqa: E731
    rows, extra_threads, python_ran = watched(call)
    assert extra_threads == 2 and python_ran > 5
    single = floatscope.sweep("sum", {"seed": [1, 2]}, threads=1, **SUM)
    assert comparable(rows) == comparable(single)


def test_threads_refused():
    with pytest.raises(floatscope.Error, match="threads -1 is not in 0..1024"):
        floatscope.run("sum", threads=-1)
    with pytest.raises(floatscope.Error, match="threads 2000"):
        floatscope.sweep("sum", {"n": [1]}, threads=2000)
