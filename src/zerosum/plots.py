"""Plots drawn headless with matplotlib and written atomically (no partial file on failure)."""

from __future__ import annotations

from pathlib import Path


def pyplot():
    """matplotlib's pyplot on the headless Agg backend (imported on first use)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def check_plot_path(path) -> None:
    """Before any work: the figure's file can be written and its suffix names a format matplotlib
    writes (``.png``, ``.pdf``, ``.svg``, ...; no suffix means PNG)."""
    from .errors import ZerosumError
    from .files import check_writable

    if path is None:
        return
    check_writable(path)
    fmt = Path(path).suffix.lstrip(".").lower()
    if fmt:
        from matplotlib.backend_bases import FigureCanvasBase

        formats = FigureCanvasBase.get_supported_filetypes()
        if fmt not in formats:
            raise ZerosumError(f"cannot write plot {str(path)!r}: .{fmt} is not an image format matplotlib "
                               f"writes; use one of {', '.join('.' + f for f in sorted(formats))}")


def save_figure(fig, path) -> None:
    """Write ``fig`` to ``path`` (format from its suffix, PNG without one) atomically, with the
    mode the umask gives a new file; the figure is closed either way."""
    from .files import write_atomic

    fmt = Path(path).suffix.lstrip(".").lower() or "png"
    try:
        write_atomic(path, lambda tmp: fig.savefig(tmp, format=fmt, dpi=120, bbox_inches="tight"), "plot")
    finally:
        pyplot().close(fig)


#: line styles beyond the colour cycle, so that no two of up to 40 series look alike
_STYLES = ("-", "--", "-.", ":")
_MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")


def _style(k: int) -> dict:
    """The k-th series' look: ten colours, then the next line style and marker."""
    return {"color": f"C{k % 10}", "linestyle": _STYLES[(k // 10) % len(_STYLES)],
            "marker": _MARKERS[(k // 10) % len(_MARKERS)], "markersize": 3}


def _draw(ax, series, hlines, styles: dict) -> bool:
    """The curves of one axes on log-log scales; returns whether any value was an exact zero.

    Zeros (an exact equilibrium, e.g. CFR+ on rock-paper-scissors) have no place on a log scale:
    they are drawn as hollow markers on a dotted floor line a decade below the smallest positive
    value, labelled "exactly 0", instead of vanishing."""
    positive = [y for xs, ys in series.values() for x, y in zip(xs, ys) if x > 0 and y is not None and y > 0]
    floor = (min(positive) if positive else 1.0) / 10
    zeros = False
    for label, (xs, ys) in series.items():
        pts = [(x, y) for x, y in zip(xs, ys) if x > 0 and y is not None and y >= 0]
        if not pts:
            continue
        st = styles[label]
        ax.plot([p[0] for p in pts], [max(p[1], floor) for p in pts], label=label, **st)
        z = [p[0] for p in pts if p[1] == 0]
        if z:
            zeros = True
            ax.plot(z, [floor] * len(z), linestyle="none", marker=st["marker"], markersize=7,
                    markerfacecolor="none", markeredgecolor=st["color"])
    if zeros:
        ax.axhline(floor, linestyle=":", color="black", linewidth=1, label="exactly 0 (drawn here)")
    for label, y in (hlines or {}).items():
        if y > 0:
            ax.axhline(y, linestyle="--", color="grey", linewidth=1, label=label)
    ax.set_xscale("log")
    ax.set_yscale("log")
    if zeros:  # limits that show the floor line, also when every value is zero
        top = max(positive + [y for y in (hlines or {}).values() if y > 0] + [floor * 100])
        ax.set_ylim(floor / 3, top * 3)
    ax.grid(True, which="both", alpha=0.3)
    return zeros


def _legend(fig, ax, n_entries: int) -> None:
    """Inside the axes when short; to the right of the figure when long (it would hide curves)."""
    handles, labels = ax.get_legend_handles_labels()
    if not handles:
        return
    if n_entries <= 6:
        ax.legend(handles, labels, fontsize="small")
    else:
        ax.legend(handles, labels, fontsize="small", loc="upper left", bbox_to_anchor=(1.02, 1.0),
                  ncol=1 if n_entries <= 20 else 2, frameon=False)


def loglog(series: dict[str, tuple[list, list]], path, title: str, xlabel: str = "iterations",
           ylabel: str = "NashConv", hlines: dict[str, float] | None = None) -> None:
    """One log-log figure with a line per series {label: (xs, ys)} and optional reference lines."""
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(6.4, 4.4))
    styles = {label: _style(k) for k, label in enumerate(series)}
    _draw(ax, series, hlines, styles)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    _legend(fig, ax, len(series) + len(hlines or {}))
    save_figure(fig, path)


def loglog_panels(panels: dict[str, dict[str, tuple[list, list]]], path, title: str, xlabel: str = "iterations",
                  ylabel: str = "NashConv", hlines: dict[str, float] | None = None) -> None:
    """Small multiples: one log-log panel per {panel title: series}, the same label drawn the same
    way in every panel, one legend for all (for many games x many solvers, where one crowded
    axes with a long legend cannot be read)."""
    plt = pyplot()
    n = max(1, len(panels))
    cols = min(3, n)
    rows = -(-n // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(4.2 * cols, 3.3 * rows + 0.6), squeeze=False,
                             layout="constrained")
    labels = list(dict.fromkeys(label for series in panels.values() for label in series))
    styles = {label: _style(k) for k, label in enumerate(labels)}
    for ax, (name, series) in zip(axes.flat, panels.items()):
        _draw(ax, series, hlines, styles)
        ax.set_title(name, fontsize="small")
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
    for ax in list(axes.flat)[len(panels):]:
        ax.set_visible(False)
    handles, names = {}, []
    for ax in axes.flat:
        for h, label in zip(*ax.get_legend_handles_labels()):
            if label not in handles:
                handles[label] = h
                names.append(label)
    if handles:  # below the panels, in space of its own (constrained layout makes room)
        fig.legend([handles[k] for k in names], names, loc="outside lower center", ncol=min(len(names), 6),
                   frameon=False)
    fig.suptitle(title)
    save_figure(fig, path)


def convergence(checkpoints: list[dict], path, title: str) -> None:
    """NashConv of the average and current strategies against iterations (log-log); an exact
    zero (an equilibrium reached) is drawn on a floor line rather than left out."""
    its = [c["iteration"] for c in checkpoints]
    loglog({"average strategy": (its, [c["nash_conv_average"] for c in checkpoints]),
            "current strategy": (its, [c["nash_conv_current"] for c in checkpoints])}, path, title)
