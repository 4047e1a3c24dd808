"""Plots drawn headless with matplotlib and written atomically (no partial file on failure)."""

from __future__ import annotations

from pathlib import Path


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def save_figure(fig, path) -> None:
    """Write ``fig`` to ``path`` (format from its suffix, PNG without one) atomically, with the
    mode the umask gives a new file; the figure is closed either way."""
    from .files import write_atomic

    fmt = Path(path).suffix.lstrip(".").lower() or "png"
    try:
        write_atomic(path, lambda tmp: fig.savefig(tmp, format=fmt, dpi=120, bbox_inches="tight"), "plot")
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
