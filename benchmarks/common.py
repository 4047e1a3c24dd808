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
