"""Plots drawn headless with matplotlib and written atomically (no partial file on failure)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from .errors import ZerosumError


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def save_figure(fig, path) -> None:
    path = Path(path)
    suffix = path.suffix or ".png"
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent if str(path.parent) else ".", suffix=suffix)
        os.close(fd)
        fig.savefig(tmp, dpi=120, bbox_inches="tight")
        os.replace(tmp, path)
    except (OSError, ValueError) as e:
        if "tmp" in locals() and os.path.exists(tmp):
            os.unlink(tmp)
        raise ZerosumError(f"cannot write plot {str(path)!r}: {e}") from None
    finally:
        _pyplot().close(fig)


def loglog(series: dict[str, tuple[list, list]], path, title: str, xlabel: str = "iterations",
           ylabel: str = "NashConv", hlines: dict[str, float] | None = None) -> None:
    """One log-log figure with a line per series {label: (xs, ys)} and optional reference lines."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6.4, 4.4))
    for label, (xs, ys) in series.items():
        pts = [(x, y) for x, y in zip(xs, ys) if x > 0 and y is not None and y > 0]
        if pts:
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", markersize=3, label=label)
    for label, y in (hlines or {}).items():
        if y > 0:
            ax.axhline(y, linestyle="--", color="grey", linewidth=1, label=label)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    save_figure(fig, path)


def convergence(checkpoints: list[dict], path, title: str) -> None:
    """NashConv of the average and current strategies against iterations (log-log)."""
    its = [c["iteration"] for c in checkpoints]
    loglog({"average strategy": (its, [c["nash_conv_average"] for c in checkpoints]),
            "current strategy": (its, [c["nash_conv_current"] for c in checkpoints])}, path, title)
