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


def emit(rows: list[dict], title: str, as_json: bool, extra: dict | None = None) -> None:
    if as_json:
        print(json.dumps({"benchmark": title, "rows": rows, **(extra or {})}, indent=1))
        return
    print(f"== {title} ==")
    for r in rows:
        print("  " + "  ".join(f"{k}={_fmt(v)}" for k, v in r.items()))
    for k, v in (extra or {}).items():
        print(f"  {k}: {_fmt(v)}")


def _fmt(v):
    if isinstance(v, float):
        return f"{v:.4g}"
    return str(v)
