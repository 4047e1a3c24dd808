"""Embarrassingly parallel runs (one seed or one setting each) as Ray tasks.

:func:`run_all` is ``[fn(*a) for a in calls]`` where ``ray`` is None, and the same list, in the
same order, computed by Ray tasks otherwise: every run is a pure function of its arguments
(seeds included), so the numbers are the serial run's.  The experiments' ``--ray`` and
``--workers`` options are the command line's (``zerosum experiment NAME --ray``).
"""

from __future__ import annotations

from .ray_runtime import check_workers, import_ray, start


def _call(fn, *args):
    return fn(*args)


def run_all(fn, calls, ray: str | None = None, workers: int | None = None) -> list:
    """``[fn(*c) for c in calls]``, serially or as Ray tasks (at most ``workers`` at once), in order."""
    check_workers(workers)
    calls = [tuple(c) for c in calls]
    if ray is None:
        return [fn(*c) for c in calls]
    n = start(ray, workers)
    rt = import_ray()
    task = rt.remote(num_cpus=1)(_call)  # any callable (builtins too) travels as an argument
    pending, results, next_call = {}, [None] * len(calls), 0
    while next_call < len(calls) or pending:
        while next_call < len(calls) and len(pending) < n:  # at most n runs at once (--workers)
            pending[task.remote(fn, *calls[next_call])] = next_call
            next_call += 1
        ready, _ = rt.wait(list(pending), num_returns=1)
        for ref in ready:
            results[pending.pop(ref)] = rt.get(ref)
    return results
