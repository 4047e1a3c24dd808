"""Shared helpers for the benchmarks: CPU-time medians and output (table or --json)."""

from __future__ import annotations

import json
import statistics
import time


def cpu_median(fn, repeats: int = 15, inner: int = 1) -> float:
    """Median CPU seconds of one call of fn, over ``repeats`` batches of ``inner`` calls."""
    samples = []
    for _ in range(repeats):
        t0 = time.process_time()
        for _ in range(inner):
            fn()
        samples.append((time.process_time() - t0) / inner)
    return statistics.median(samples)


def interleaved(fns: dict, repeats: int = 15, inner: int = 5) -> dict:
    """CPU seconds of one call of each fn, the fns taking turns (round-robin) ``repeats`` times, so
    that a change of machine load mid-run (this machine is shared) hits every side alike:
    ``{name: samples}``, a sample the mean of ``inner`` consecutive calls after one untimed call
    (each side runs warm, as consecutive iterations do; timed right after another side, a small
    side would pay for refilling the caches the large one emptied).  Compare sides with
    :func:`paired_ratio`, not a ratio of separate medians."""
    samples = {name: [] for name in fns}
    for _ in range(repeats):
        for name, fn in fns.items():
            fn()
            t0 = time.process_time()
            for _ in range(inner):
                fn()
            samples[name].append((time.process_time() - t0) / inner)
    return samples


def paired_ratio(samples: dict, num: str, den: str) -> float:
    """Median over the rounds of :func:`interleaved` of num's time over den's in the same round."""
    return statistics.median(a / b for a, b in zip(samples[num], samples[den]))


def environment() -> dict:
    """What the figures were measured on: absolute times differ between the machines sessions get
    (the same kernel ran 2-4x slower on one than on another), so runs compare by their ratios,
    and this says which machine and which compiler versions a run had."""
    import os
    import platform

    env = {"cpu": platform.processor() or platform.machine(), "cpus": os.cpu_count(),
           "python": platform.python_version()}
    try:
        with open("/proc/cpuinfo") as f:
            env["cpu"] = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    for name in ("numpy", "scipy", "numba"):
        try:
            env[name] = __import__(name).__version__
        except ImportError:
            pass
    if hasattr(os, "getloadavg"):
        env["load_average"] = round(os.getloadavg()[0], 2)
    return env


def emit(rows: list[dict], title: str, as_json: bool, extra: dict | None = None) -> None:
    extra = {**(extra or {}), "environment": environment()}
    if as_json:
        print(json.dumps({"benchmark": title, "rows": rows, **extra}, indent=1))
        return
    print(f"== {title} ==")
    for r in rows:
        print("  " + "  ".join(f"{k}={_fmt(v)}" for k, v in r.items()))
    for k, v in extra.items():
        print(f"  {k}: {_fmt(v)}")


def _fmt(v):
    if isinstance(v, float):
        return f"{v:.4g}"
    return str(v)
